import { createHash } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import {
  loadScript,
  type ScriptedModel,
  ScriptedModelError,
  startScriptedModel,
} from '@hankweave/scripted-model';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { describeFsError } from '../output/fs-error-hint.js';
import type { UnansweredRequest } from './unanswered-requests.js';

/** A dry run: the scripted model serving the agent, and the environment that points it there. */
export interface DryRun {
  model: ScriptedModel;
  /** Where Pi codons (models that are not Anthropic's) reach it: its `/v1`, in each model's API family. */
  piBaseUrl: string;
  env: NodeJS.ProcessEnv;
  /** Requests the script had no answer for (each failed the agent's call). */
  unanswered(): UnansweredRequest[];
  close(): Promise<void>;
}

const isRoot = (): boolean => process.getuid?.() === 0;

/**
 * Starts `@hankweave/scripted-model` on a script file, in this process, on loopback, and builds
 * the agent environment for it: a dummy API key (a real one is never sent, even to loopback), no
 * non-essential traffic, no agent-side retries, and a private Claude config directory (under the
 * OS temp dir, per data path, so resumed `continue-previous` sessions are found and ~/.claude is
 * never touched). Pi codons reach the same server (`piBaseUrl`, the
 * model's `/v1`), each in its model's own API family (OpenAI's Responses, Gemini's generateContent,
 * Chat Completions for the rest): the one script answers both agents, and Pi needs no provider key for a base URL;
 * their sessions live in the execution (`.hankweave/pi/`). As root it sets IS_SANDBOX=1: a dry run on a scripted model is sandboxed by
 * definition (no network, no real model), so Claude Code may bypass its permission prompts.
 */
export async function startDryRun(
  scriptPath: string,
  dataPath: string,
  baseEnv: NodeJS.ProcessEnv = process.env,
): Promise<DryRun> {
  // The data is hashed below to name the config directory, before the runtime checks it: a
  // missing data path must be said here, in words, not as the hash's raw ENOENT.
  checkDataExists(dataPath);
  const script = await loadModelScript(resolve(scriptPath));
  const model = await startScriptedModel({ script });
  const configDir = join(
    tmpdir(),
    `hankweave-dry-run-${safeUser()}`,
    // Keyed by the data's path, not its hash: a data change (relinked with --force) or a new
    // hash version must not lose the sessions that continue-previous codons resume.
    createHash('sha256').update(resolve(dataPath)).digest('hex').slice(0, 12),
    'claude-config',
  );
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    ANTHROPIC_API_KEY: 'sk-hankweave-scripted-model',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_MAX_RETRIES: baseEnv.CLAUDE_CODE_MAX_RETRIES ?? '0',
    ...(isRoot() ? { IS_SANDBOX: '1' } : {}),
  };
  return {
    model,
    piBaseUrl: `${model.url}/v1`,
    env,
    unanswered: () =>
      model.requests.flatMap((request) => (request.error ? [{ ...request.error }] : [])),
    close: () => model.close(),
  };
}

/** @throws {CliError} CLI_NOT_FOUND when `dataPath` (or a parent of it) does not exist. */
function checkDataExists(dataPath: string): void {
  try {
    statSync(dataPath);
  } catch (error) {
    const fs = describeFsError(error);
    if (fs?.errno !== 'ENOENT' && fs?.errno !== 'ENOTDIR') throw error;
    throw new CliError(
      'CLI_NOT_FOUND',
      fs.errno === 'ENOENT'
        ? `The data ${resolve(dataPath)} does not exist`
        : `The data ${resolve(dataPath)} does not exist: ${fs.message}`,
      'Pass an existing file or directory as the data: the second argument or --data <path>.',
    );
  }
}

function safeUser(): string {
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return String(process.getuid?.() ?? 'user');
  }
}

/**
 * The model script, or one error that names the file and says what is wrong with it: missing,
 * not JSON, or not a valid script (with the fields at fault). Other file-system errors
 * (permissions) go on as they are, to be said in words by the error report.
 */
async function loadModelScript(path: string) {
  try {
    return await loadScript(path);
  } catch (error) {
    if (!ScriptedModelError.is(error)) throw error;
    const cause = (error as { cause?: unknown }).cause;
    const errno = describeFsError(cause)?.errno;
    if (errno === 'ENOENT' || errno === 'ENOTDIR')
      throw new CliError(
        'CLI_NOT_FOUND',
        `The model script ${path} does not exist`,
        `Pass the path of a JSON model script to --scripted-model (\`${commandHint('init', '<dir>')}\` writes a sample hank with one, model-script.json).`,
      );
    if (error.code === 'SCRIPTED_MODEL_SCRIPT_UNREADABLE' && cause instanceof SyntaxError)
      throw new CliError(
        'CLI_FAILED',
        `The model script ${path} is not JSON: ${cause.message}`,
        `Fix the JSON of ${path} at the position named.`,
      );
    if (error.code === 'SCRIPTED_MODEL_INVALID_SCRIPT')
      throw new CliError(
        'CLI_FAILED',
        `The model script ${path} is not a valid script:\n${error.message.replace(/^invalid script[^:]*:\n?/, '')}`,
        `Fix the fields named above in ${path}; its JSON Schema is @hankweave/scripted-model/schemas/script.schema.json.`,
      );
    throw error;
  }
}
