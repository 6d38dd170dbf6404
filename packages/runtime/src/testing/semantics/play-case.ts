import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttemptOutcome, LoopEnding, Stop, UserStep } from '@hankweave/hank';
import { executionThread, readState } from '@hankweave/state';
import type { HankweaveEvent, HankweaveState } from '@hankweave/types';
import { createRuntime, type Runtime } from '../../runtime/create-runtime.js';
import type { RuntimeExit } from '../../runtime/exit-code.js';
import {
  type CodonEnd,
  codonEnds,
  finishOrder,
  linearized,
  mergeNotices,
  startedAfterStop,
} from './event-order.js';
import {
  finishedRecords,
  type ObservedExecution,
  type ObservedMerge,
  observeExecutions,
  observeLoopEndings,
  observeMerges,
  observeSteps,
  stopOf,
} from './observe.js';
import { type CostUnit, outcomeAgent } from './outcome-agent.js';
import { type OutcomeTable, tableOutcome } from './outcome-table.js';

/** One case of the semantics property: a hank, its outcomes, the person's steps (plain data). */
export interface SemanticsCase {
  /** hank.json as written (the runtime validates it). */
  hank: unknown;
  outcomes: OutcomeTable;
  steps: readonly UserStep[];
  /** `--max-cost`. */
  maxCost?: number;
  /** The runtime budget's dollar ceiling (`hankweave.json`). */
  runtimeMaxDollars?: number;
  costUnit?: CostUnit;
}

/** What the runtime did with a case. */
export interface PlayedCase {
  executions: ObservedExecution[];
  stops: (Stop | `unexpected: ${string}`)[];
  loops: LoopEnding[];
  /**
   * The runtime codon ids of the executions that were a step of their own, in the order they
   * ended: all but those a block's condition skipped with its block (see {@link observeSteps}).
   */
  scheduled: string[];
  /** Codons whose attempt began after a codon's end stopped their process run (none, ever). */
  startedAfterStop: string[];
  /** Parallel blocks' merges (their records are not among `executions`). */
  merges: ObservedMerge[];
  executionDir: string;
}

/** The directories of a case: its data and its execution. */
export function caseLayout(dir: string): { dataPath: string; executionDir: string } {
  const dataPath = join(dir, 'data');
  mkdirSync(dataPath, { recursive: true });
  writeFileSync(join(dataPath, 'input.txt'), 'the user data\n');
  return { dataPath, executionDir: join(dir, 'execution') };
}

/**
 * A runtime on the case's execution, driven by its outcomes; `events` collects what it journals.
 * The person's skip and interrupt go through the runtime's own commands.
 */
export function caseRuntime(
  semantics: SemanticsCase,
  dir: string,
  options: { autostart?: boolean; events?: HankweaveEvent[]; onInterrupt?: () => void } = {},
): Runtime {
  const { dataPath, executionDir } = caseLayout(dir);
  const outcome: (codonId: string, attempt: number) => AttemptOutcome = tableOutcome(
    semantics.outcomes,
  );
  let runtime: Runtime | undefined;
  const state = (): HankweaveState => (runtime as Runtime).getState();
  runtime = createRuntime({
    hank: semantics.hank,
    hankDir: dir,
    dataPath,
    executionDir,
    harness: outcomeAgent({
      outcome,
      state,
      writes: (codonId) => semantics.outcomes.writes?.[codonId.split('#')[0] as string],
      stop: (kind, codonId) => {
        const live = runtime as Runtime;
        if (kind === 'skip') {
          void live.command({ type: 'codon.skip', data: { codonId } }).catch(() => {});
        } else if (options.onInterrupt) options.onInterrupt();
        else void live.close({ reason: 'SIGINT' });
      },
      ...(semantics.costUnit ? { costUnit: semantics.costUnit } : {}),
    }),
    headless: true,
    autostart: options.autostart ?? true,
    killGraceMs: 50,
    ...(semantics.maxCost !== undefined ? { maxCost: semantics.maxCost } : {}),
    ...(semantics.runtimeMaxDollars !== undefined
      ? { budget: { maxDollars: semantics.runtimeMaxDollars } }
      : {}),
  });
  if (options.events) {
    const events = options.events;
    runtime.on((event) => events.push(event));
  }
  guardAgainstRunaway(runtime);
  return runtime;
}

/**
 * More codon starts or more events than any generated case needs in one start: a loop that never
 * ends (the bug of issue 30 ran 250 iterations in five minutes). The guard stops the runtime so
 * that the case fails with a message, and fast-check shrinks it, instead of the test hanging. No
 * time limit: on a starved machine a start of an ordinary case took more than a minute, and a
 * runaway that emits no event did not give the event loop back for a timer to fire either.
 */
export const MAX_CODON_STARTS = 500;
const MAX_EVENTS = 50_000;
const runaway = new WeakSet<Runtime>();

function guardAgainstRunaway(runtime: Runtime): void {
  let starts = 0;
  let events = 0;
  runtime.on((event) => {
    if (event.type === 'codon.started') starts++;
    if ((++events <= MAX_EVENTS && starts <= MAX_CODON_STARTS) || runaway.has(runtime)) return;
    runaway.add(runtime);
    void runtime.close({ reason: 'SIGTERM' }).catch(() => {});
  });
}

/** Throws when the guard stopped the runtime (see {@link MAX_CODON_STARTS}). */
function failOnRunaway(runtime: Runtime): void {
  if (runaway.has(runtime)) {
    throw new Error(
      `Runaway: one start ran more than ${MAX_CODON_STARTS} codons or emitted more than ${MAX_EVENTS} events (a loop that never ends?)`,
    );
  }
}

/**
 * The codon a rollback step names: the `target`-th (modulo) distinct codon id that completed on
 * the execution thread, in thread order (the interpreter resolves it the same way). A parallel
 * block's merge record is no codon execution for the interpreter, so it is not counted; with
 * `ends` (the case's `codon.completed` events so far), records are in the order they ended, as
 * the interpreter's executions are (concurrent branches end in another order than they start).
 */
export function rollbackCodon(
  state: HankweaveState,
  target: number,
  ends?: readonly CodonEnd[],
): string | undefined {
  const merges = new Set(
    state.executionPlan
      .filter((entry) => entry.parallelContext?.role === 'merge')
      .map((entry) => entry.codonId),
  );
  const records = executionThread(state)
    .codons.map(({ codon }) => codon)
    .filter((codon) => codon.status === 'completed' && !merges.has(codon.codonId))
    .reverse();
  if (ends) {
    const order = finishOrder(finishedRecords(state), linearized(ends));
    records.sort((a, b) => (order.get(a)?.at ?? 0) - (order.get(b)?.at ?? 0));
  }
  const completed = records.map((codon) => codon.codonId);
  const ids = [...new Set(completed)];
  return ids.length === 0 ? undefined : ids[target % ids.length];
}

/**
 * Rolls the case's execution back as a step says, in a runtime of its own (as `hankweave
 * rollback`).
 */
export async function rollBack(
  semantics: SemanticsCase,
  dir: string,
  target: number,
  ends?: readonly CodonEnd[],
): Promise<void> {
  const runtime = caseRuntime(semantics, dir, { autostart: false });
  await runtime.start();
  try {
    const codonId = rollbackCodon(runtime.getState(), target, ends);
    if (codonId !== undefined) {
      await runtime.command({
        type: 'rollback.toCodon',
        data: { codonId, checkpointType: 'completed' },
      });
    }
  } finally {
    await runtime.close();
  }
}

/** Runs the runtime once, to its end. */
export async function runOnce(
  semantics: SemanticsCase,
  dir: string,
  events: HankweaveEvent[],
): Promise<RuntimeExit> {
  const runtime = caseRuntime(semantics, dir, { events });
  await runtime.start();
  const exit = await runtime.finished;
  failOnRunaway(runtime);
  return exit;
}

/**
 * Plays a case in this process: the runtime runs to its end, then each step (a resume, or a
 * rollback then a resume) runs it again; returns what it executed, how each run stopped, and
 * how its loops ended.
 */
export async function playCase(semantics: SemanticsCase, dir: string): Promise<PlayedCase> {
  const events: HankweaveEvent[] = [];
  const stops: PlayedCase['stops'] = [];
  const ends: CodonEnd[] = [];
  const notices: { blockId: string; ordered: boolean }[] = [];
  const sessionOfRun = new Map<string, number>();
  for (const [session, step] of [undefined, ...semantics.steps].entries()) {
    if (step?.kind === 'rollback') await rollBack(semantics, dir, step.target, ends);
    const before = events.length;
    stops.push(stopOf(await runOnce(semantics, dir, events)));
    ends.push(...codonEnds(events.slice(before), session));
    notices.push(...mergeNotices(events.slice(before)));
    const runs = (await readState(join(caseLayout(dir).executionDir, '.hankweave'))).state.runs;
    for (const run of runs) if (!sessionOfRun.has(run.runId)) sessionOfRun.set(run.runId, session);
  }
  const { executionDir } = caseLayout(dir);
  const read = await readState(join(executionDir, '.hankweave'));
  const runOf = new Map(
    read.state.runs.flatMap((run) => run.codons.map((record) => [record, run.runId] as const)),
  );
  const finished = finishOrder(finishedRecords(read.state), linearized(ends), (record) =>
    sessionOfRun.get(runOf.get(record) ?? ''),
  );
  return {
    executions: observeExecutions(read.state, finished),
    scheduled: observeSteps(read.state, finished),
    startedAfterStop: startedAfterStop(finished),
    stops,
    loops: observeLoopEndings(events),
    merges: observeMerges(read.state, finished, notices),
    executionDir,
  };
}
