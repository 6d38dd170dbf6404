import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentHarness,
  type AgentSession,
  type AgentStartOptions,
  HarnessError,
  ReplayHarness,
} from '@hankweave/harness';
import type { ModelCatalog } from '@hankweave/types';
import { codonFileName } from '../execution/layout.js';
import { type RecordedExecution, recordedKill, splitSessions } from './recorded-execution.js';

/** Pacing of a replay (reference §1.10); each unset value falls back to its variable. */
export interface ReplayPacingOptions {
  /** Playback speed: 2 replays twice as fast as recorded. Default 1. */
  speed?: number;
  /** Longest wait between two lines. Default `HANKWEAVE_REPLAY_MAX_DELAY_MS`, else 1000. */
  maxDelayMs?: number;
  /** Shortest wait between two lines. Default `HANKWEAVE_REPLAY_SPEED_MS`, else 5. */
  minDelayMs?: number;
}

/** Options of {@link ExecutionReplayHarness}. */
export interface ExecutionReplayHarnessOptions extends ReplayPacingOptions {
  /** The recorded execution (undefined: it has no runs folder; every start then fails). */
  recording: RecordedExecution | undefined;
  /** The directory named in errors when there is no recording. */
  searched: string;
  /** Where the `HANKWEAVE_REPLAY_*` variables are read. */
  env: Readonly<Record<string, string | undefined>>;
  models?: ModelCatalog;
}

/**
 * The harness of a replayed execution: the n-th start of a codon gets the n-th session of that
 * codon's recorded log (a first attempt, its extensions and its retries share one log), fed
 * through `ReplayHarness` so the real writer, parser, costs and failure classification run. No
 * agent and no model.
 *
 * A recording that ends with a kill note (the runtime stopped the agent: a budget, a skip) plays
 * to that note when the replay stops the agent too, so the replay spends exactly what the
 * recording spent, lines the agent printed before the kill took effect included.
 */
export class ExecutionReplayHarness implements AgentHarness {
  readonly name = 'replay';
  readonly #starts = new Map<string, number>();

  constructor(private readonly options: ExecutionReplayHarnessOptions) {}

  /**
   * @throws {HarnessError} HARNESS_LOG_NOT_FOUND when the codon has no recorded log, or no
   *   recorded session left for this start; the codes of `ReplayHarness.start`.
   */
  async start(options: AgentStartOptions): Promise<AgentSession> {
    const { codonId } = options;
    const index = this.#starts.get(codonId) ?? 0;
    this.#starts.set(codonId, index + 1);
    const sessions = await this.#sessionsOf(codonId);
    const lines = sessions[index];
    if (lines === undefined) {
      throw new HarnessError(
        'HARNESS_LOG_NOT_FOUND',
        `Replay: the recording of codon ${codonId} has ${sessions.length} agent session(s); this is start ${index + 1}`,
        { details: { codonId, path: this.options.searched } },
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'hankweave-replay-'));
    try {
      const path = join(dir, `${codonFileName(codonId)}-${index}.log`);
      await writeFile(path, `${lines.join('\n')}\n`);
      const { signal, ...rest } = options;
      // The abort signal is handled here, not by the inner session: a stop must play a recorded
      // kill to its end rather than cut the feed.
      const inner = await new ReplayHarness({
        recording: path,
        env: this.options.env,
        ...(this.options.speed !== undefined && { speed: this.options.speed }),
        ...(this.options.maxDelayMs !== undefined && { maxDelayMs: this.options.maxDelayMs }),
        ...(this.options.minDelayMs !== undefined && { minDelayMs: this.options.minDelayMs }),
        ...(this.options.models !== undefined && { models: this.options.models }),
      }).start(rest);
      const session = withRecordedKill(inner, recordedKill(lines));
      if (signal) {
        if (signal.aborted) void session.kill('aborted');
        else signal.addEventListener('abort', () => void session.kill('aborted'), { once: true });
      }
      return session;
    } finally {
      // ReplayHarness has read the whole file in start().
      await rm(dir, { recursive: true, force: true });
    }
  }

  async #sessionsOf(codonId: string): Promise<string[][]> {
    const path = this.options.recording?.logOf(codonId);
    if (path === undefined) {
      throw new HarnessError(
        'HARNESS_LOG_NOT_FOUND',
        `Replay: no recorded agent log for codon ${codonId} in ${this.options.searched}: state.json names none that exists (claudeLogPath), and there is no {runId}/${codonFileName(codonId)}-claude.log. Replay an execution that ran this codon, or remove the codon from the hank.`,
        { details: { codonId, path: this.options.searched } },
      );
    }
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (cause) {
      throw new HarnessError('HARNESS_LOG_NOT_FOUND', `Replay: cannot read ${path}`, {
        cause,
        details: { codonId, path },
      });
    }
    return splitSessions(text);
  }
}

function withRecordedKill(session: AgentSession, killRecorded: boolean): AgentSession {
  return {
    pid: session.pid,
    logPath: session.logPath,
    events: session.events,
    outcome: session.outcome,
    kill: async (reason) => {
      if (!killRecorded) return session.kill(reason);
      // The recording goes on to its own kill note: let it, and end as it ended.
      await session.outcome;
    },
  };
}
