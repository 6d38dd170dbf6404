import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@hankweave/durable-io/testing';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The real Claude Code binary installed from npm: the platform package that @hankweave/claude-code
 * depends on. This package cannot depend on that one (it is a dev dependency of it), so the
 * platform package is resolved from there.
 */
export function claudeBinary(): string {
  const require = createRequire(join(packageRoot, '..', 'claude-code', 'package.json'));
  const base = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  for (const name of [base, `${base}-musl`]) {
    try {
      const path = join(dirname(require.resolve(`${name}/package.json`)), 'claude');
      if (existsSync(path)) return path;
    } catch {
      // Try the next variant.
    }
  }
  throw new Error(`${base} is not installed next to @hankweave/claude-code: run pnpm install`);
}

/** One line of Claude Code's stream-json output. */
export type AgentLine = Record<string, unknown> & { type: string; subtype?: string };

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: AgentLine[];
  /** The last `result` line. */
  result: AgentLine | undefined;
  sessionId: string | undefined;
}

export interface AgentSandbox {
  cwd: string;
  home: string;
  run(options: RunOptions): Promise<AgentRun>;
  [Symbol.asyncDispose](): Promise<void>;
}

interface RunOptions {
  baseUrl: string;
  prompt: string;
  args?: string[];
  env?: Record<string, string>;
  /** Kill the agent after this long (a safety net: tests must not hang). Default 60 s. */
  timeoutMs?: number;
}

/** A private HOME and an empty working directory; `await using` removes both. */
export async function createAgentSandbox(): Promise<AgentSandbox> {
  const root = await makeTempDir('scripted-model-');
  const cwd = join(root.path, 'work');
  const home = join(root.path, 'home');
  await mkdir(cwd);
  await mkdir(home);
  return {
    cwd,
    home,
    run: (options) => runClaude({ ...options, cwd, home }),
    [Symbol.asyncDispose]: root.cleanup,
  };
}

/**
 * Runs `claude -p --output-format stream-json` against a scripted model, offline: loopback base
 * URL, dummy key, no non-essential traffic, private HOME; IS_SANDBOX=1 because CI runs as root.
 * Spawned here rather than with durable-io's `spawnChild`, which runs node scripts only: the
 * npm package installs Claude Code as a native executable.
 */
export function runClaude(options: RunOptions & { cwd: string; home: string }): Promise<AgentRun> {
  const args = [
    '-p',
    '--verbose',
    '--output-format',
    'stream-json',
    '--model',
    'claude-sonnet-4-5',
    '--dangerously-skip-permissions',
    ...(options.args ?? []),
  ];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(claudeBinary(), args, { cwd: options.cwd, env });
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
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as AgentLine);
      const result = lines.findLast((line) => line.type === 'result');
      const init = lines.find((line) => line.type === 'system' && line.subtype === 'init');
      resolve({
        code,
        stdout,
        stderr,
        lines,
        result,
        sessionId: init?.session_id as string | undefined,
      });
    });
    child.stdin.end(options.prompt);
  });
}

/** Saves a run as a parser fixture when UPDATE_AGENT_FIXTURES=1 (fixtures are never rewritten otherwise). */
export async function maybeSaveFixture(name: string, run: AgentRun): Promise<void> {
  if (process.env.UPDATE_AGENT_FIXTURES !== '1') return;
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(packageRoot, 'test', 'fixtures', 'agent-logs', `${name}.jsonl`), run.stdout);
}
