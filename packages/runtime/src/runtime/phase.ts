import type { ClientCommandType } from '@hankweave/types';
import type { RuntimeErrorCode } from '../errors.js';

/**
 * Where a runtime is in its life. Exactly one at a time; every change goes through
 * `HankweaveRuntime`'s `#enter()`:
 *
 * ```
 * new ─start()→ starting ─→ idle ⇄ driving        (codons run; back to idle when they stop)
 *                  │          ⇅                   (recovery at start may roll back first)
 *                  │     rolling-back
 *                  └──────────┴──── shutdown() ──→ stopping ─→ closed
 * ```
 */
export const RUNTIME_PHASES = [
  /** Created; `start()` not called yet. */
  'new',
  /** `start()` runs: the execution is opened and recovered. */
  'starting',
  /** Open, no codon running: waiting for a command (or about to drive with autostart). */
  'idle',
  /** Codons run (one at a time), including retry pauses between attempts. */
  'driving',
  /** A rollback restores files and opens a continuation run. */
  'rolling-back',
  /** A graceful shutdown stops the agent, drains sentinels and closes the stores. */
  'stopping',
  /** Everything is closed; `finished` has resolved. */
  'closed',
] as const;

/** One of {@link RUNTIME_PHASES}. */
export type RuntimePhase = (typeof RUNTIME_PHASES)[number];

/** Commands grouped by what they need from the runtime. */
type CommandGroup = 'run' | 'stop-codon' | 'rollback' | 'shutdown' | 'read' | 'ping' | 'broadcast';

const GROUP_OF: Readonly<Record<ClientCommandType, CommandGroup>> = {
  'codon.start': 'run',
  'codon.next': 'run',
  'codon.redo': 'run',
  'codon.skip': 'stop-codon',
  'codon.forceStop': 'stop-codon',
  'rollback.toCheckpoint': 'rollback',
  'rollback.toCodon': 'rollback',
  'rollback.toLastSuccess': 'rollback',
  'server.shutdown': 'shutdown',
  'server.force_shutdown': 'shutdown',
  'checkpoint.list': 'read',
  'history.sync': 'read',
  ping: 'ping',
  // It reaches every client, so it changes what they see: refused while rolling back (§3.2).
  'ping.broadcast': 'broadcast',
};

/** Before the execution is open, nothing can be answered. */
const BEFORE_OPEN: Readonly<Partial<Record<CommandGroup, RuntimeErrorCode>>> = {
  run: 'RUNTIME_NOT_STARTED',
  'stop-codon': 'RUNTIME_NOT_STARTED',
  rollback: 'RUNTIME_NOT_STARTED',
  shutdown: 'RUNTIME_NOT_STARTED',
  read: 'RUNTIME_NOT_STARTED',
  ping: 'RUNTIME_NOT_STARTED',
  broadcast: 'RUNTIME_NOT_STARTED',
};

/**
 * Which command groups each phase refuses, and with which code; a group not listed is accepted.
 * Commands that need a running codon (`stop-codon`) also check that one is running, and
 * `codon.next` that one is left: those are facts of the plan, not of the phase.
 */
const REFUSALS: Readonly<
  Record<RuntimePhase, Readonly<Partial<Record<CommandGroup, RuntimeErrorCode>>>>
> = {
  new: BEFORE_OPEN,
  starting: BEFORE_OPEN,
  idle: {},
  driving: { run: 'RUNTIME_CODON_RUNNING', rollback: 'RUNTIME_CODON_RUNNING' },
  'rolling-back': {
    run: 'RUNTIME_ROLLBACK_IN_PROGRESS',
    'stop-codon': 'RUNTIME_ROLLBACK_IN_PROGRESS',
    rollback: 'RUNTIME_ROLLBACK_IN_PROGRESS',
    broadcast: 'RUNTIME_ROLLBACK_IN_PROGRESS',
  },
  stopping: {
    run: 'RUNTIME_SHUTTING_DOWN',
    'stop-codon': 'RUNTIME_SHUTTING_DOWN',
    rollback: 'RUNTIME_SHUTTING_DOWN',
  },
  closed: {
    run: 'RUNTIME_SHUTTING_DOWN',
    'stop-codon': 'RUNTIME_SHUTTING_DOWN',
    rollback: 'RUNTIME_SHUTTING_DOWN',
    read: 'RUNTIME_SHUTTING_DOWN',
  },
};

/** The code with which `phase` refuses `command`, or undefined when the phase accepts it. */
export function refusalOf(
  phase: RuntimePhase,
  command: ClientCommandType,
): RuntimeErrorCode | undefined {
  return REFUSALS[phase][GROUP_OF[command]];
}

/** What a refusal says, per code, for the command it refuses. */
export function refusalMessage(code: RuntimeErrorCode, command: ClientCommandType): string {
  switch (code) {
    case 'RUNTIME_NOT_STARTED':
      return `Cannot run ${command} before start() has finished`;
    // The original runtime's words (reference §3.2), which clients may show as they are.
    case 'RUNTIME_CODON_RUNNING':
      if (command.startsWith('rollback.'))
        return "Cannot rollback while codon is running. Use 'codon.forceStop' first.";
      if (command === 'codon.next') return 'Cannot start next codon while current codon is running';
      return `Cannot run ${command} while a codon is running; wait for it, or stop it with codon.skip or codon.forceStop`;
    case 'RUNTIME_ROLLBACK_IN_PROGRESS':
      return `Cannot run ${command} during a rollback; wait for it to finish`;
    case 'RUNTIME_SHUTTING_DOWN':
      return `Cannot run ${command}: the runtime is shutting down`;
    default:
      return `Cannot run ${command} now`;
  }
}
