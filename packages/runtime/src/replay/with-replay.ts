import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isInside } from '@hankweave/durable-io';
import { RuntimeError } from '../errors.js';
import type { CreateRuntimeOptions } from '../runtime/create-runtime-options.js';
import { NO_SENTINELS } from '../runtime/sentinel-host.js';
import { ExecutionReplayHarness } from './execution-replay-harness.js';
import { openRecordedExecution } from './recorded-execution.js';

function invalid(message: string, value: unknown): RuntimeError {
  return new RuntimeError('RUNTIME_INVALID_OPTION', message, {
    details: { option: 'replay', value },
  });
}

/**
 * The options of a replay (reference §8.2): the harness feeds each codon its recorded agent log,
 * the execution is always a new one (never the recorded one, which stays untouched), and no
 * sentinels run unless the embedder passes its own host. Options without `replay` are returned
 * as they are.
 *
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION (details.option `replay`) when the recorded
 *   directory does not exist or holds no `runs` folder, when `executionDir` is (inside) the
 *   recorded one, or when a `harness` is passed too.
 */
export function withReplay(options: CreateRuntimeOptions): CreateRuntimeOptions {
  const { replay } = options;
  if (replay === undefined) return options;
  const recordedDir = resolve(replay.executionDir);
  if (!existsSync(recordedDir)) {
    throw invalid(`Replay: ${recordedDir} does not exist`, replay.executionDir);
  }
  if (options.harness !== undefined) {
    throw invalid('Replay brings its own harness: pass either replay or harness', 'harness');
  }
  if (options.executionDir !== undefined && isInside(recordedDir, resolve(options.executionDir))) {
    throw invalid(
      `Replay writes a new execution: ${options.executionDir} is the recorded one (${recordedDir})`,
      options.executionDir,
    );
  }
  const recording = openRecordedExecution(recordedDir);
  if (recording === undefined) {
    throw invalid(
      `Replay: ${recordedDir} holds no agent logs (no .hankweave/runs folder)`,
      replay.executionDir,
    );
  }
  const { executionDir: _recorded, ...pacing } = replay;
  return {
    ...options,
    startNew: true,
    harness: new ExecutionReplayHarness({
      ...pacing,
      recording,
      searched: recording.runsDir,
      env: options.env ?? process.env,
      ...(options.models !== undefined && { models: options.models }),
    }),
    // Replay runs no sentinels (reference §8.2): they would call a model.
    sentinels: options.sentinels ?? NO_SENTINELS,
  };
}
