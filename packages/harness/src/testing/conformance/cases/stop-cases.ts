import { expect, it } from 'vitest';
import {
  type ConformanceContext,
  readLogLines,
  runToEnd,
  untilFailureServed,
  withRig,
} from '../conformance-helpers.js';

// The model never answers: the agent is mid-turn, waiting on its request, when it is stopped.
const STALLED = { conversations: [{ turns: [{ fail: { kind: 'stall' as const } }] }] };

/** Stopping a running agent: `kill()` and the start option's abort signal. */
export function stopCases(context: ConformanceContext): void {
  const { caseTimeoutMs } = context.options;

  it(
    'stops the agent mid-turn on kill(): killed, no failure reason, the kill noted in the log',
    async () => {
      await withRig(context, STALLED, async ({ start, served }) => {
        const { session, options } = await start();
        await untilFailureServed(served, caseTimeoutMs / 2);
        await session.kill('conformance stop');
        // A second kill() of a stopped agent resolves too.
        await session.kill('again');
        const { outcome } = await runToEnd(session);
        expect(outcome).toMatchObject({
          killed: true,
          timedOut: false,
          resultReceived: false,
          contextExceeded: false,
        });
        expect(outcome.failureReason).toBeUndefined();
        // Noted before the agent stops, so a replay of the log ends killed too.
        const lines = await readLogLines(options.logPath);
        expect(lines).toContainEqual(
          expect.objectContaining({
            type: 'harness',
            subtype: 'killed',
            reason: 'conformance stop',
          }),
        );
      });
    },
    caseTimeoutMs,
  );

  it(
    'stops the agent when the start signal aborts',
    async () => {
      await withRig(context, STALLED, async ({ start, served }) => {
        const controller = new AbortController();
        const { session } = await start({ signal: controller.signal });
        await untilFailureServed(served, caseTimeoutMs / 2);
        controller.abort();
        const outcome = await session.outcome;
        expect(outcome).toMatchObject({ killed: true, timedOut: false, resultReceived: false });
        expect(outcome.failureReason).toBeUndefined();
      });
    },
    caseTimeoutMs,
  );
}
