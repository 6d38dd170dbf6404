import { readFile } from 'node:fs/promises';
import type { ModelCatalog } from '@hankweave/types';
import { validateStartOptions } from '../adapter/validate-start-options.js';
import type { AgentHarness, AgentSession, AgentStartOptions } from '../agent-harness.js';
import { HarnessError } from '../errors.js';
import { LineFeedSession } from '../internal/line-feed-session.js';
import { computeReplayDelays, type ReplayPacing, resolveReplayPacing } from './replay-delays.js';

/** Options of {@link ReplayHarness}. */
export interface ReplayHarnessOptions extends Partial<ReplayPacing> {
  /** The recorded agent log to replay for a start (a path, or a function of the start options). */
  recording: string | ((options: AgentStartOptions) => string | Promise<string>);
  /** Where the `HANKWEAVE_REPLAY_*` pacing variables are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Prices the usage. Default `defaultModelCatalog` of `@hankweave/types`. */
  models?: ModelCatalog;
}

/**
 * Re-feeds a recorded agent log through the same writer and parser as a live agent, paced by the
 * recorded timestamps, so the new log, the events and the outcome match the recording. No
 * process runs; `pid` is synthetic; `kill()` stops the feed (outcome `killed`, signal SIGTERM).
 */
export class ReplayHarness implements AgentHarness {
  readonly name = 'replay';

  constructor(private readonly options: ReplayHarnessOptions) {}

  /**
   * @throws {HarnessError} HARNESS_LOG_NOT_FOUND when the recording cannot be read;
   * HARNESS_INVALID_OPTIONS; HARNESS_LOG_WRITE_FAILED.
   */
  async start(options: AgentStartOptions): Promise<AgentSession> {
    validateStartOptions(options);
    const { recording } = this.options;
    const path = typeof recording === 'string' ? recording : await recording(options);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (cause) {
      throw new HarnessError('HARNESS_LOG_NOT_FOUND', `No recorded agent log at ${path}`, {
        cause,
        details: { path, codonId: options.codonId },
      });
    }
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    const pacing = resolveReplayPacing(this.options, this.options.env ?? process.env);
    const delays = computeReplayDelays(lines, pacing);
    return LineFeedSession.start({
      options,
      lines,
      delayBeforeLine: (index) => delays[index] ?? 0,
      ...(this.options.models !== undefined && { models: this.options.models }),
    });
  }
}
