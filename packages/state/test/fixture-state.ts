import { emptyState, type HankweaveState, type StateTransition } from '@hankweave/types';
import { replayTransitions } from '../src/reducer/reduce-state.js';
import { codonLifecycle, METADATA_FOR, makeTransition as t } from '../src/testing/transitions.js';

// Not exported from the package: a state shared by the reading tests.

const plan = ['research', 'lint', 'review#0', 'review#1'].map((codonId) => ({
  codon: { id: codonId.split('#')[0] as string, name: codonId },
  codonId,
}));

/**
 * r1 (fresh): research completed, lint skipped, review#0 failed (timeout), run failed.
 * r2 (rollback after lint of r1): review#0 running with costs and sentinels; r2 is current.
 */
export const twoRunState = (): HankweaveState => {
  const transitions: StateTransition[] = [
    { type: 'ExecutionPlanUpdated', data: { executionPlan: plan } },
    t.runStarted('r1'),
    ...codonLifecycle('r1', 'research', 'completed', 0.03),
    ...codonLifecycle('r1', 'lint', 'skipped', 0.005),
    ...codonLifecycle('r1', 'review#0', 'failed', 0.01),
    t.runFailed('r1'),
    t.runStarted('r2', {
      second: 1000,
      startingConditions: {
        type: 'continuation',
        source: {
          runId: 'r1',
          afterCodon: 'lint',
          checkpointSha: METADATA_FOR.skipped?.checkpointSha ?? '',
        },
        reason: 'rollback',
      },
    }),
    ...codonLifecycle('r2', 'review#0', 'running', 0.02),
  ];
  return replayTransitions(emptyState(), transitions);
};
