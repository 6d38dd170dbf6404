import type { BudgetHalt } from '../budget/budget-gate.js';
import type { CodonControl } from '../codon/codon-control.js';
import type { CodonRunOutcome } from '../codon/codon-run-outcome.js';
import { RuntimeError } from '../errors.js';
import type { ShutdownReason } from './exit-code.js';
import { info, type RuntimeContext } from './runtime-context.js';

/** The codon running now, and its control handle. */
export interface ActiveCodon {
  control: CodonControl;
  promise: Promise<CodonRunOutcome>;
}

/** The first codon started of those running now (a parallel block runs several). */
export function firstActive(active: ReadonlySet<ActiveCodon>): ActiveCodon | undefined {
  return active.values().next().value;
}

/**
 * Skips or force-stops a running codon (`HankweaveRuntime.stopActive`, once the command is
 * admitted); resolves with its id once its agent has exited. With `expected`, only that codon.
 *
 * @throws {RuntimeError} RUNTIME_NO_CODON_RUNNING
 */
export async function stopActiveCodon(
  context: RuntimeContext,
  running: ReadonlySet<ActiveCodon>,
  kind: 'skip' | 'forceStop',
  options: { reason?: string | undefined; expected?: string | undefined },
): Promise<string> {
  const { reason, expected } = options;
  const active =
    expected === undefined
      ? firstActive(running)
      : ([...running].find((candidate) => candidate.control.codonId === expected) ??
        firstActive(running));
  if (expected !== undefined && active?.control.codonId !== expected) {
    const runningId = active?.control.codonId;
    // A parallel block runs several: name them all (`running` stays the first, as before).
    const all = [...running].map((candidate) => candidate.control.codonId);
    const who =
      all.length > 1
        ? ` (${all.join(', ')} are)`
        : runningId === undefined
          ? ''
          : ` (${runningId} is)`;
    throw new RuntimeError(
      'RUNTIME_NO_CODON_RUNNING',
      `Codon ${expected} is not running${who}; nothing was stopped`,
      { details: { codonId: expected, running: runningId ?? null, runningCodons: all } },
    );
  }
  if (!active) throw new RuntimeError('RUNTIME_NO_CODON_RUNNING', 'No running codon to stop');
  await active.control.stop(
    kind === 'skip' ? { kind: 'skip' } : { kind: 'force-stop', reason: reason ?? 'user request' },
  );
  if (kind === 'forceStop') info(context, `Codon ${active.control.codonId} force stopped`);
  return active.control.codonId;
}

/**
 * A graceful shutdown's first step: stops every codon running when it began and waits until
 * their agents have exited (each leaves its exit checkpoint and its record marked interrupted).
 */
export async function stopForShutdown(
  context: RuntimeContext,
  active: readonly ActiveCodon[],
  reason: ShutdownReason,
  /**
   * A spent hank budget stops them: each ends as a budget stop (its record says what was spent),
   * not as interrupted, and one its own watchdog stopped keeps its own figure.
   */
  budget?: BudgetHalt['running'],
): Promise<void> {
  if (active.length === 0) return;
  info(
    context,
    `Shutting down: waiting for ${active.length === 1 ? 'the agent process' : `${active.length} agent processes`} to exit. Send server.force_shutdown to force quit.`,
  );
  // Every branch of a parallel block stops at once.
  await Promise.all(
    active.map(async (codon) => {
      await codon.control.stop(
        budget ? { kind: 'budget', ...budget } : { kind: 'shutdown', cause: reason },
      );
      await codon.promise.catch(() => undefined);
    }),
  );
}
