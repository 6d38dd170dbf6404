import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { type ConformanceContext, ofType, runToEnd, withRig } from '../conformance-helpers.js';

const NOTE = 'notes/conformance.txt';
const NOTE_TEXT = 'written by the harness conformance suite\n';

/** A real tool call of the agent, in a real working directory. */
export function toolCases(context: ConformanceContext): void {
  it(
    'runs a tool call that writes a file in the working directory and reports its result',
    async () => {
      const script = {
        conversations: [
          {
            turns: [
              {
                content: [
                  { text: 'Writing the note.' },
                  { write: { path: NOTE, content: NOTE_TEXT } },
                ],
                usage: { inputTokens: 300, outputTokens: 40 },
              },
              { content: [{ text: 'Done.' }], usage: { inputTokens: 400, outputTokens: 5 } },
            ],
          },
        ],
      };
      await withRig(context, script, async ({ start, served }) => {
        const { session, options } = await start();
        const { events, outcome } = await runToEnd(session);

        expect(await readFile(join(options.cwd, NOTE), 'utf8')).toBe(NOTE_TEXT);
        const toolUses = ofType(events, 'assistant.action').filter(
          (event) => event.data.action === 'tool_use',
        );
        expect(toolUses).toHaveLength(1);
        const toolUseId = toolUses[0]?.data.toolUseId;
        expect(toolUseId).toEqual(expect.any(String));
        const results = ofType(events, 'tool.result');
        expect(results.map((event) => event.data)).toEqual([
          expect.objectContaining({ toolUseId, isError: false, codonId: options.codonId }),
        ]);
        expect(events.indexOf(results[0] as (typeof events)[number])).toBeGreaterThan(
          events.indexOf(toolUses[0] as (typeof events)[number]),
        );

        // The tool result went back to the model, which answered with its second turn.
        const turns = served.requests().flatMap((request) => request.match?.turn ?? []);
        expect(turns.at(-1)).toBe(1);
        expect(outcome).toMatchObject({
          exitCode: 0,
          resultReceived: true,
          resultText: 'Done.',
          assistantMessageCount: 2,
        });
        expect(outcome.failureReason).toBeUndefined();
        expect(outcome.finalTokens).toMatchObject({ inputTokens: 700, outputTokens: 45 });
      });
    },
    context.options.caseTimeoutMs,
  );
}
