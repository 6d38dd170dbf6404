import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@hankweave/durable-io/testing';

const PI_CLI = join('node_modules', '@mariozechner', 'pi-coding-agent', 'dist', 'cli.js');

/**
 * Where the Pi CLI is: `PI_CLI_PATH` (the `dist/cli.js` of `@mariozechner/pi-coding-agent`), else
 * the first `node_modules/@mariozechner/pi-coding-agent/dist/cli.js` in this package's directory
 * or one above it. Pi is not a dependency of this package (the Pi harness package owns it), so
 * undefined means "not installed here": the Pi tests skip.
 */
export function piCliPath(): string | undefined {
  const fromEnv = process.env.PI_CLI_PATH;
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? fromEnv : undefined;
  let directory = fileURLToPath(new URL('../..', import.meta.url));
  for (;;) {
    const candidate = join(directory, PI_CLI);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** The provider and model every Pi test run uses; any id works, requests match by marker. */
export const PI_PROVIDER = 'scripted';
export const PI_MODEL = 'gpt-5.2';

/**
 * The `models.json` that points Pi at a scripted model: one custom provider speaking the OpenAI
 * Chat Completions API (`openai-completions`) at `<url>/v1`, with a dummy key.
 */
export function piModelsJson(baseUrl: string): Record<string, unknown> {
  return {
    providers: {
      [PI_PROVIDER]: {
        baseUrl: `${baseUrl}/v1`,
        api: 'openai-completions',
        apiKey: 'dummy',
        models: [{ id: PI_MODEL, contextWindow: 200_000, maxTokens: 8_000 }],
      },
    },
  };
}

/** One line of Pi's `--mode json` output. */
export type PiLine = Record<string, unknown> & { type: string };

export interface PiRun {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: PiLine[];
}

export interface PiSandbox {
  cwd: string;
  home: string;
  /** Pi's config directory (`PI_CODING_AGENT_DIR`): models.json, sessions. */
  agentDir: string;
  run(options: { baseUrl: string; prompt: string; timeoutMs?: number }): Promise<PiRun>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A private HOME, Pi config directory and empty working directory; `await using` removes them. */
export async function createPiSandbox(cli: string): Promise<PiSandbox> {
  const root = await makeTempDir('scripted-model-pi-');
  const cwd = join(root.path, 'work');
  const home = join(root.path, 'home');
  const agentDir = join(root.path, 'pi-agent');
  await Promise.all([mkdir(cwd), mkdir(home), mkdir(agentDir)]);
  return {
    cwd,
    home,
    agentDir,
    run: async (options) => {
      const models = `${JSON.stringify(piModelsJson(options.baseUrl), null, 2)}\n`;
      await writeFile(join(agentDir, 'models.json'), models);
      return runPi({ ...options, cli, cwd, home, agentDir });
    },
    [Symbol.asyncDispose]: root.cleanup,
  };
}

/**
 * Runs `pi --mode json -p` offline: a private HOME and PI_CODING_AGENT_DIR, `--offline` (no
 * version check, no tool downloads, no telemetry), and an environment without the caller's
 * provider keys.
 */
function runPi(options: {
  cli: string;
  cwd: string;
  home: string;
  agentDir: string;
  prompt: string;
  timeoutMs?: number;
}): Promise<PiRun> {
  const args = [
    options.cli,
    '--mode',
    'json',
    '--offline',
    '--provider',
    PI_PROVIDER,
    '--model',
    PI_MODEL,
    '-p',
    options.prompt,
  ];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    PI_CODING_AGENT_DIR: options.agentDir,
    PI_OFFLINE: '1',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env, stdio: 'pipe' });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = stdout
        .split('\n')
        .filter((line) => line.trim().startsWith('{'))
        .map((line) => JSON.parse(line) as PiLine);
      resolve({ code, stdout, stderr, lines });
    });
  });
}
