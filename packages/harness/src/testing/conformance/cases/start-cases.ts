import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { AgentLogParser } from '../../../parser/agent-log-parser.js';
import { ReplayHarness } from '../../../replay/replay-harness.js';
import {
  type ConformanceContext,
  ofType,
  readLogLines,
  runToEnd,
  withRig,
} from '../conformance-helpers.js';

const USAGE = { inputTokens: 1200, outputTokens: 80 };

/** A plain successful run: the events, the outcome, the cost, the log and its replay. */
export function startCases(context: ConformanceContext): void {
  const { caseTimeoutMs } = context.options;

  it(
    'reports a successful run in order, priced from the catalog, in a log that replays the same',
    async () => {
      const script = {
        conversations: [{ turns: [{ content: [{ text: 'CONFORMANCE_HELLO' }], usage: USAGE }] }],
      };
      await withRig(context, script, async ({ start, models, rig }) => {
        const { session, options } = await start();
        expect(session.pid).toBeGreaterThan(0);
        expect(session.logPath).toBe(options.logPath);
        const { events, outcome } = await runToEnd(session);

        // Order: the session first, then the message, then the result, the final figures last.
        const types = events.map((event) => event.type);
        expect(types[0]).toBe('session.started');
        const message = types.indexOf('assistant.action');
        const result = types.indexOf('result');
        expect(message).toBeGreaterThan(0);
        expect(result).toBeGreaterThan(message);
        const finals = ofType(events, 'token.usage').filter((event) => event.final);
        expect(finals).toHaveLength(1);
        expect(events.at(-1)).toBe(finals[0]);
        expect(ofType(events, 'result')).toHaveLength(1);
        expect(ofType(events, 'result')[0]).toMatchObject({ subtype: 'success', isError: false });
        expect(ofType(events, 'assistant.action').map((event) => event.data)).toEqual([
          expect.objectContaining({
            codonId: options.codonId,
            action: 'message',
            content: 'CONFORMANCE_HELLO',
          }),
        ]);

        const sessionId = ofType(events, 'session.started')[0]?.sessionId;
        expect(sessionId).toEqual(expect.any(String));
        expect(outcome).toMatchObject({
          exitCode: 0,
          resultReceived: true,
          sessionId,
          contextExceeded: false,
          killed: false,
          timedOut: false,
          resultText: 'CONFORMANCE_HELLO',
          assistantMessageCount: 1,
        });
        expect(outcome.failureReason).toBeUndefined();

        // The cost is the catalog's price of the tokens the model reported.
        expect(outcome.finalTokens).toEqual({
          inputTokens: USAGE.inputTokens,
          outputTokens: USAGE.outputTokens,
          cacheCreationTokens: 0,
          cacheReadTokens: 0,
        });
        const priced = models.priceUsage(options.model, outcome.finalTokens);
        expect(priced.known).toBe(true);
        expect(outcome.finalCost).toBeGreaterThan(0);
        expect(outcome.finalCost).toBeCloseTo(priced.cost, 9);
        expect(finals[0]?.data.totalCost).toBeCloseTo(outcome.finalCost, 9);
        expect(ofType(events, 'warning')).toEqual([]);

        // The log is Claude-style JSONL: stamped objects, an init, the message and the result.
        const lines = await readLogLines(options.logPath);
        for (const line of lines) {
          expect(line).toMatchObject({ type: expect.any(String), timestamp: expect.any(String) });
        }
        const lineTypes = new Set(lines.map((line) => line.type));
        for (const type of ['system', 'assistant', 'result']) expect(lineTypes).toContain(type);

        // The log is the source of truth: parsing it again gives the same events ...
        const parser = new AgentLogParser({
          codonId: options.codonId,
          model: options.model,
          models,
        });
        const text = await readFile(options.logPath, 'utf8');
        const reparsed = text.split('\n').flatMap((line) => parser.push(line));
        expect([...reparsed, ...parser.finish()]).toEqual(events);

        // ... and replaying it gives the same outcome.
        const replay = new ReplayHarness({
          recording: options.logPath,
          minDelayMs: 0,
          maxDelayMs: 0,
          env: {},
          models,
        });
        const replayed = await runToEnd(await replay.start(rig.startOptions()));
        expect(replayed.outcome).toEqual(outcome);
      });
    },
    caseTimeoutMs,
  );
}
