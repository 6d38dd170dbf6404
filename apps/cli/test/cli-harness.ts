import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(CLI_ROOT, 'dist', 'bin.js');
export const EXAMPLE_DIR = fileURLToPath(new URL('../../../examples/hello-hank/', import.meta.url));
/** The escape character that starts every ANSI sequence. */
export const ESC = String.fromCharCode(27);
/** Any ANSI escape sequence. */
export const ANSI = new RegExp(`${ESC}\\[`);
/** Removes ANSI sequences (colours, cursor movement), leaving the text a person sees. */
export const stripAnsi = (text: string): string =>
  text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g'), '');

/** A private world per test file: its own tmp root, HOME, TMPDIR and managed executions dir. */
export interface Sandbox {
  root: string;
  home: string;
  baseDir: string;
  env: NodeJS.ProcessEnv;
  /** A copy of the bundled example hank. */
  copyExample(name?: string): { hankDir: string; dataDir: string; script: string };
  cleanup(): void;
}

export function createSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'hankweave-cli-'));
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    TMPDIR: tmp,
    HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(root, 'executions'),
    PATH: pathWithoutThisCli(process.env.PATH ?? ''),
  };
  for (const name of [
    'FORCE_COLOR',
    'NO_COLOR',
    'HANKWEAVE_DEBUG',
    'ANTHROPIC_BASE_URL',
    'CLAUDE_CONFIG_DIR',
  ])
    delete env[name];
  return {
    root,
    home,
    baseDir: join(root, 'executions'),
    env,
    copyExample(name = 'hello-hank') {
      const hankDir = join(root, name);
      cpSync(EXAMPLE_DIR, hankDir, { recursive: true });
      return {
        hankDir,
        dataDir: join(hankDir, 'data'),
        script: join(hankDir, 'model-script.json'),
      };
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * PATH without the directories whose `hankweave` is this checkout's CLI (a developer who ran the
 * README's setup has one): the tests of printed commands expect the launcher they set, not the
 * plain `hankweave` the CLI prints when it finds itself on PATH.
 */
export function pathWithoutThisCli(path: string): string {
  if (!existsSync(join(CLI_ROOT, 'dist'))) return path;
  const self = realpathSync(join(CLI_ROOT, 'dist'));
  return path
    .split(delimiter)
    .filter((dir) => {
      const candidate = join(dir, 'hankweave');
      if (dir === '' || !existsSync(candidate)) return true;
      try {
        return !realpathSync(candidate).startsWith(self);
      } catch {
        return true;
      }
    })
    .join(delimiter);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/bin.js ...args` (not a TTY), optionally with stdin text. */
export function runCli(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  return runProcess(process.execPath, [BIN, ...args], options);
}

/** Runs any command, collecting its output; rejects when it outlives `timeoutMs`. */
export function runProcess(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd ?? CLI_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${args.join(' ')} did not finish in ${options.timeoutMs ?? 45_000} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The execution directory named in a run's summary (`Execution   <dir>`). */
/** The execution directories in a base directory (its `.claude/` session files left out). */
export function executionNames(baseDir: string): string[] {
  return readdirSync(baseDir).filter((name) => !name.startsWith('.'));
}

export function executionDirOf(output: string): string {
  const match = /^Execution\s+(\S.*)$/m.exec(output);
  if (!match?.[1]) throw new Error(`No "Execution" line in:\n${output}`);
  return match[1].trim();
}

/** Every file under `dir` with its size and mtime: proof that a command wrote nothing. */
export function treeSnapshot(dir: string): Record<string, string> {
  const snapshot: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        snapshot[relative(dir, path)] = `${stat.size}:${stat.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return snapshot;
}

/** Starts the binary in the background (for `--follow`): read its output so far, then stop it. */
export function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env,
    cwd: CLI_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    output: () => stdout,
    errors: () => stderr,
    async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<void> {
      const started = Date.now();
      while (!pattern.test(stdout)) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`No ${pattern} within ${timeoutMs} ms; output:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async waitForErrors(pattern: RegExp, timeoutMs = 15_000): Promise<void> {
      const started = Date.now();
      while (!pattern.test(stderr)) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`No ${pattern} on stderr within ${timeoutMs} ms:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    exited: () => exited,
    stop(signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
      child.kill(signal);
      return exited;
    },
  };
}

/** A codon record of state.json, as the example tests read it. */
export interface RecordedCodon {
  codonId: string;
  status: string;
  skipReason?: string;
}

/**
 * Runs an example hank directory offline on its own model script (a new execution), and reads
 * back what it recorded: the run's output, agentRoot, and every codon record, oldest run first.
 */
export async function playExample(hankDir: string, env: NodeJS.ProcessEnv) {
  const run = await runCli(
    [
      hankDir,
      join(hankDir, 'data'),
      '--scripted-model',
      join(hankDir, 'model-script.json'),
      '--start-new',
    ],
    { env, timeoutMs: 120_000 },
  );
  const executionDir = executionDirOf(run.stdout);
  const state = JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
  const codons = state.runs.flatMap((r: { codons: unknown[] }) => r.codons) as RecordedCodon[];
  return { run, executionDir, agentRoot: join(executionDir, 'agentRoot'), codons };
}
