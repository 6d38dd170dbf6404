import type { StateTransition } from '@hankweave/types';
import type { StateErrorCode } from '../errors.js';
import { codonLifecycle, METADATA_FOR, makeTransition as t } from './transitions.js';

/** One way to misuse `apply()`, and the code it must be rejected with. */
export interface InvalidTransitionCase {
  name: string;
  /** Valid transitions applied first. */
  setup: StateTransition[];
  transition: unknown;
  code: StateErrorCode;
}

const running = codonLifecycle('r1', 'research', 'running');
const started = [t.runStarted('r1'), ...codonLifecycle('r1', 'research', 'preparing')];

/** Every rule of the reducer, broken once (reference §5.5 and the run rules). */
export const INVALID_TRANSITIONS: readonly InvalidTransitionCase[] = [
  {
    name: 'an unknown transition type',
    setup: [],
    transition: { type: 'RunPaused', data: {} },
    code: 'STATE_INVALID',
  },
  {
    name: 'RunStarted without a runId',
    setup: [],
    transition: { type: 'RunStarted', data: { ...t.runStarted('x').data, runId: undefined } },
    code: 'STATE_INVALID',
  },
  {
    name: 'RunStarted for an existing run',
    setup: [t.runStarted('r1')],
    transition: t.runStarted('r1'),
    code: 'STATE_DUPLICATE_RUN',
  },
  {
    name: 'CodonStarted in an unknown run',
    setup: [t.runStarted('r1')],
    transition: t.codonStarted('nope', 'a'),
    code: 'STATE_UNKNOWN_RUN',
  },
  {
    name: 'RunCompleted of an unknown run',
    setup: [],
    transition: t.runCompleted('nope'),
    code: 'STATE_UNKNOWN_RUN',
  },
  {
    name: 'CodonTransitioned of a codon never started',
    setup: [t.runStarted('r1')],
    transition: t.to('r1', 'ghost', 'preparing', 'starting'),
    code: 'STATE_UNKNOWN_CODON',
  },
  {
    name: 'a transition the state machine does not allow (preparing → running)',
    setup: started,
    transition: t.to('r1', 'research', 'preparing', 'running', METADATA_FOR.running),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'a `from` that is not the current status',
    setup: started,
    transition: t.to('r1', 'research', 'starting', 'initializing', METADATA_FOR.initializing),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'leaving a terminal status (completed → running)',
    setup: [t.runStarted('r1'), ...codonLifecycle('r1', 'research', 'completed')],
    transition: t.to('r1', 'research', 'completed', 'running', METADATA_FOR.running),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'CodonStarted while the codon is still active',
    setup: started,
    transition: t.codonStarted('r1', 'research'),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'CodonStarted in a finished run',
    setup: [t.runStarted('r1'), t.runCompleted('r1')],
    transition: t.codonStarted('r1', 'research'),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'ending a run twice',
    setup: [t.runStarted('r1'), t.runCompleted('r1')],
    transition: t.runFailed('r1'),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'costs for a codon that is not running',
    setup: started,
    transition: t.costsIncremented('r1', 'research', 0.5),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'sentinel states for a codon still preparing',
    setup: started,
    transition: t.sentinels('r1', 'research', 0.1),
    code: 'STATE_INVALID_TRANSITION',
  },
  {
    name: 'initializing without claudePid',
    setup: [t.runStarted('r1'), ...codonLifecycle('r1', 'research', 'starting')],
    transition: t.to('r1', 'research', 'starting', 'initializing', { claudeLogPath: 'x.log' }),
    code: 'STATE_MISSING_METADATA',
  },
  {
    name: 'running without claudeSessionId',
    setup: [t.runStarted('r1'), ...codonLifecycle('r1', 'research', 'initializing')],
    transition: t.to('r1', 'research', 'initializing', 'running', {}),
    code: 'STATE_MISSING_METADATA',
  },
  {
    name: 'failed without failureReason',
    setup: [t.runStarted('r1'), ...running],
    transition: t.to('r1', 'research', 'running', 'failed', {
      failedDuring: 'running',
      exitCode: 1,
    }),
    code: 'STATE_MISSING_METADATA',
  },
  {
    name: 'skipped without skippedDuring',
    setup: [t.runStarted('r1'), ...running],
    transition: t.to('r1', 'research', 'running', 'skipped', {}),
    code: 'STATE_MISSING_METADATA',
  },
];
