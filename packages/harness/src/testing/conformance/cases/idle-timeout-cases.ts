import { expect, it } from 'vitest';
import { type ConformanceContext, runToEnd, withRig } from '../conformance-helpers.js';

/** The idle watchdog: an agent that prints nothing for `idleTimeoutMs` is stopped. */
export function idleTimeoutCases(context: ConformanceContext): void {
  const { caseTimeoutMs, idleTimeoutMs } = context.options;

  it(
    'stops a stalled agent after the idle timeout as a retriable timeout',
    async () => {
      const script = { conversations: [{ turns: [{ fail: { kind: 'stall' as const } }] }] };
      await withRig(context, script, async ({ start }) => {
        const started = Date.now();
        const { session } = await start({ idleTimeoutMs });
        const { outcome } = await runToEnd(session);
        expect(Date.now() - started).toBeLessThan(caseTimeoutMs);
        // The synthetic error result the watchdog writes makes the outcome (and a replay) a timeout.
        expect(outcome).toMatchObject({
          timedOut: true,
          killed: false,
          resultReceived: true,
          contextExceeded: false,
          failureReason: { type: 'timeout', retriable: true },
        });
      });
    },
    caseTimeoutMs,
  );
}
