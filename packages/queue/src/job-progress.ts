import type { HankweaveEvent } from '@hankweave/types';

/** Where a job's run is: what `job.progress.phase` says. */
export type JobPhase =
  /** Opening the execution (crash recovery, a rollback to the last success). */
  | 'starting'
  /** Codons are running. */
  | 'running'
  /** Another live process holds the execution's runtime.lock: the job waits in `delayed`. */
  | 'locked'
  /** A stop was asked for (cancel, worker shutdown, lost queue lock): the agent is stopping. */
  | 'stopping'
  /** The worker shut down mid-run: the job waits in `delayed` for any worker to resume it. */
  | 'requeued'
  | 'finished';

/** One codon attempt seen by this job's worker. */
export interface CodonProgress {
  /** The runtime codon id (`review#1` for a loop iteration). */
  codonId: string;
  status: 'running' | 'completed' | 'failed';
  /** USD, once finished. */
  cost: number;
  startedAt: string;
  endedAt?: string;
}

/** The last codon-level event, for one-line displays. */
export interface CodonEventSummary {
  type: 'codon.started' | 'codon.completed';
  codonId: string;
  /** `codon.completed` only. */
  success?: boolean;
  /** `codon.completed` only: the codon's cost in USD. */
  cost?: number;
  at: string;
}

/** What a worker puts in `job.progress` (`job.updateProgress`), at codon level. */
export interface JobProgress {
  phase: JobPhase;
  /** The worker running the job: `{hostname}:{pid}` unless named otherwise. */
  worker: string;
  executionDir: string;
  /** The execution existed before this attempt (a resume after a crash or a stop). */
  resumed: boolean;
  /** Codon attempts of this worker's run, oldest first (at most the last 100). */
  codons: CodonProgress[];
  /** Codons completed / failed in this attempt. */
  completed: number;
  failed: number;
  /** USD spent by the codons this attempt finished. */
  cost: number;
  /** The codon running now. */
  current: string | null;
  last?: CodonEventSummary;
  updatedAt: string;
}

const MAX_CODONS = 100;

/** Folds runtime events into a {@link JobProgress}. Pure apart from the clock. */
export class JobProgressTracker {
  #progress: JobProgress;

  constructor(
    init: { worker: string; executionDir: string; resumed: boolean },
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#progress = {
      phase: 'starting',
      ...init,
      codons: [],
      completed: 0,
      failed: 0,
      cost: 0,
      current: null,
      updatedAt: this.now().toISOString(),
    };
  }

  /** A copy of the progress now. */
  get progress(): JobProgress {
    return structuredClone(this.#progress);
  }

  setPhase(phase: JobPhase): JobProgress {
    this.#progress.phase = phase;
    this.#progress.updatedAt = this.now().toISOString();
    return this.progress;
  }

  /** Applies one event; true when it changed the progress (a codon started or finished). */
  apply(event: HankweaveEvent): boolean {
    const at = event.timestamp;
    if (event.type === 'codon.started') {
      const { codonId } = event.data;
      const progress = this.#progress;
      progress.codons.push({ codonId, status: 'running', cost: 0, startedAt: at });
      if (progress.codons.length > MAX_CODONS) progress.codons.shift();
      progress.current = codonId;
      if (progress.phase === 'starting') progress.phase = 'running';
      progress.last = { type: 'codon.started', codonId, at };
      progress.updatedAt = this.now().toISOString();
      return true;
    }
    if (event.type === 'codon.completed') {
      const { codonId, success, cost } = event.data;
      const progress = this.#progress;
      const attempt = progress.codons.findLast(
        (codon) => codon.codonId === codonId && codon.status === 'running',
      );
      if (attempt) {
        attempt.status = success ? 'completed' : 'failed';
        attempt.cost = cost;
        attempt.endedAt = at;
      }
      if (success) progress.completed++;
      else progress.failed++;
      progress.cost += cost;
      if (progress.current === codonId) progress.current = null;
      progress.last = { type: 'codon.completed', codonId, success, cost, at };
      progress.updatedAt = this.now().toISOString();
      return true;
    }
    return false;
  }
}

/** Reads `job.progress` back; undefined when it is not a worker's {@link JobProgress}. */
export function asJobProgress(value: unknown): JobProgress | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<JobProgress>;
  return typeof candidate.phase === 'string' && Array.isArray(candidate.codons)
    ? (value as JobProgress)
    : undefined;
}
