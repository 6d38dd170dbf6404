import { expect, it } from 'vitest';
import { type ConformanceContext, ofType, runToEnd, withRig } from '../conformance-helpers.js';

/** The model's context-length error. */
export function contextExceededCases(context: ConformanceContext): void {
  it(
    'reports context exceeded when the model says the prompt is too long',
    async () => {
      const script = {
        conversations: [{ turns: [{ fail: { kind: 'prompt-too-long' as const } }] }],
      };
      await withRig(context, script, async ({ start }) => {
        const { events, outcome } = await runToEnd((await start()).session);
        expect(ofType(events, 'context.exceeded')).toHaveLength(1);
        expect(outcome).toMatchObject({ contextExceeded: true, killed: false, timedOut: false });
        // The same prompt would be too long again: never a retriable failure.
        expect(outcome.failureReason?.retriable ?? false).toBe(false);
      });
    },
    context.options.caseTimeoutMs,
  );
}
