import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { stripAnsi } from './cli-harness.js';

/** Whether util-linux `script` (which gives a command a real pseudo-terminal) is installed. */
export function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Quotes one word for `sh -c`. */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** A command running in a real pseudo-terminal: what a person sees, and keys a person types. */
export interface PtySession {
  /** Everything written to the terminal so far, escape sequences included. */
  raw(): string;
  /** The text so far without escape sequences (a redrawn line appears once per redraw). */
  text(): string;
  /** Types `keys` (`\r` is Enter, `\u0003` is Ctrl-C: the terminal sends SIGINT). */
  type(keys: string): void;
  /** Resolves once `pattern` matches the text; rejects after `timeoutMs` with the text so far. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The command's exit code (`script -e` passes it on). */
  exited: Promise<number | null>;
  /** Kills the terminal and the command (cleanup after a failed test). */
  kill(): void;
}

/**
 * Starts `argv` in a pseudo-terminal of `cols` × `rows` through util-linux `script`: stdin and
 * stdout of the command are a TTY, so it behaves as on a person's terminal (live view, prompts,
 * Ctrl-C delivered by the terminal's line discipline as SIGINT to the foreground process group).
 */
export function startInPty(
  argv: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; cols?: number; rows?: number },
): PtySession {
  const command = `stty cols ${options.cols ?? 120} rows ${options.rows ?? 40}; exec ${argv.map(shellQuote).join(' ')}`;
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...options.env, TERM: options.env.TERM ?? 'xterm-256color' },
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  child.stdout.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const text = () => stripAnsi(raw).replaceAll('\r', '');
  return {
    raw: () => raw,
    text,
    type: (keys) => {
      child.stdin.write(keys);
    },
    async waitFor(pattern, timeoutMs = 30_000) {
      const started = Date.now();
      while (!pattern.test(text())) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`No ${pattern} within ${timeoutMs} ms; the terminal shows:\n${text()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    exited,
    kill: () => {
      child.kill('SIGKILL');
    },
  };
}
