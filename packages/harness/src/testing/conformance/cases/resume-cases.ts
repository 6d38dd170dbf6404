import { expect, it } from 'vitest';
import { type ConformanceContext, ofType, runToEnd, withRig } from '../conformance-helpers.js';

const FIRST = { inputTokens: 100, outputTokens: 10 };
const SECOND = { inputTokens: 200, outputTokens: 20 };

/** `continue-previous`: a start with the previous session id continues that conversation. */
export function resumeCases(context: ConformanceContext): void {
  it(
    'continues the previous conversation when started with its session id, costing only itself',
    async () => {
      const script = {
        conversations: [
          {
            turns: [
              { content: [{ text: 'first answer' }], usage: FIRST },
              { content: [{ text: 'second answer' }], usage: SECOND },
            ],
          },
        ],
      };
      await withRig(context, script, async ({ start, served, models }) => {
        const first = await runToEnd((await start({ prompt: 'QUESTION_ONE' })).session);
        expect(first.outcome.failureReason).toBeUndefined();
        const sessionId = first.outcome.sessionId;
        expect(sessionId).toEqual(expect.any(String));

        const { session, options } = await start({
          prompt: 'QUESTION_TWO',
          resumeSessionId: sessionId as string,
        });
        const second = await runToEnd(session);

        // Turn 1 answers a request that carries one assistant message: the first conversation's.
        const answered = served.requests().filter((request) => request.match?.served === 'content');
        expect(answered.at(-1)?.match?.turn).toBe(1);
        expect(ofType(second.events, 'assistant.action')[0]?.data.content).toBe('second answer');
        expect(second.outcome).toMatchObject({
          exitCode: 0,
          resultReceived: true,
          resultText: 'second answer',
        });
        expect(second.outcome.failureReason).toBeUndefined();
        // An extension or continue-previous codon never counts its predecessor again.
        expect(second.outcome.finalTokens).toMatchObject(SECOND);
        const priced = models.priceUsage(options.model, second.outcome.finalTokens).cost;
        expect(second.outcome.finalCost).toBeCloseTo(priced, 9);
      });
    },
    context.options.caseTimeoutMs,
  );
}
