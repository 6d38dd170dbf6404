import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError } from '@hankweave/harness';
import type { PiModel } from './pi-model.js';
import { piModelsJson } from './pi-models-json.js';

/** What goes into one start's private Pi config directory. */
export interface PiAgentDirInput {
  /** The directory holding every start's config and the shared sessions. */
  root: string;
  model: PiModel;
  /** The provider's server (a local one, a proxy), when one is used. */
  baseUrl?: string;
  /** Forces Pi's API family for that server; default the provider's own (see `piModelsJson`). */
  api?: string;
  /** The variable holding the key (its name: Pi reads it from its env). */
  keyVariable?: string;
  /** Whether Pi may compact its context; undefined leaves Pi's default (on). */
  autoCompact?: boolean;
  /** Text appended to Pi's system prompt (written to a file of the config directory). */
  appendSystemPrompt?: string;
  /** Pi's own retries of failed requests (its `retry` setting and the provider client's). */
  retries: boolean;
}

/** A start's config directory, removed once the agent has exited. */
export interface PiAgentDir {
  /** `PI_CODING_AGENT_DIR` of this start: models.json and settings.json, nothing of the user's. */
  configDir: string;
  /** `--session-dir`: shared by every start under `root`, so a later start can resume. */
  sessionDir: string;
  /** The file holding the system prompt append, when there is one. */
  appendSystemPromptFile?: string;
  remove(): Promise<void>;
}

/**
 * Writes a private Pi config directory for one start. Each start gets its own (parallel codons
 * may run different models), while the sessions live in one directory beside them so that
 * `continue-previous` finds the previous session by its id.
 * @throws {HarnessError} HARNESS_SPAWN_FAILED when the directory cannot be written.
 */
export async function writePiAgentDir(input: PiAgentDirInput): Promise<PiAgentDir> {
  const configDir = join(input.root, 'config', randomUUID());
  const sessionDir = join(input.root, 'sessions');
  const append = input.appendSystemPrompt ?? '';
  const appendSystemPromptFile = append === '' ? undefined : join(configDir, 'append-system.md');
  try {
    await mkdir(configDir, { recursive: true });
    await mkdir(sessionDir, { recursive: true });
    await writeFile(join(configDir, 'settings.json'), `${JSON.stringify(settingsOf(input))}\n`);
    if (appendSystemPromptFile !== undefined) await writeFile(appendSystemPromptFile, append);
    const models = piModelsJson(input);
    if (models !== undefined) {
      await writeFile(join(configDir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
    }
  } catch (cause) {
    throw new HarnessError(
      'HARNESS_SPAWN_FAILED',
      `Cannot write Pi's config directory ${configDir}: ${(cause as Error).message}. Check that the agent log's directory is writable, or pass the harness's "agentDir" option`,
      { cause, details: { path: configDir } },
    );
  }
  return {
    configDir,
    sessionDir,
    ...(appendSystemPromptFile !== undefined && { appendSystemPromptFile }),
    remove: () => rm(configDir, { recursive: true, force: true }),
  };
}

function settingsOf(input: PiAgentDirInput): Record<string, unknown> {
  return {
    quietStartup: true,
    ...(input.autoCompact !== undefined && { compaction: { enabled: input.autoCompact } }),
    // Off: the runtime's retry policy decides (reference §4.9); on: Pi's defaults.
    ...(!input.retries && { retry: { enabled: false, provider: { maxRetries: 0 } } }),
  };
}
