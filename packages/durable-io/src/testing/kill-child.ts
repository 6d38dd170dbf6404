import { type ChildProcess, spawn } from 'node:child_process';

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Every complete stdout line (a line the child was killed in the middle of is not one). */
  lines: readonly string[];
  stderr: string;
}

/** Options of {@link spawnChild}. */
export interface SpawnChildOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Arguments for node itself (`--import`, ...). */
  execArgv?: readonly string[];
  /** Keep stdin open for {@link ChildUnderTest.send} (default: stdin is ignored). */
  stdin?: boolean;
  /**
   * SIGKILL the child if it is still alive after this long, so a hung child fails the test
   * instead of hanging it (default 60 s; 0 turns the guard off).
   */
  guardMs?: number;
}

/** A node child process under test: its output line by line, and the means to kill it. */
export interface ChildUnderTest {
  readonly process: ChildProcess;
  /** Complete stdout lines so far. */
  readonly lines: readonly string[];
  /** Everything written to stderr so far. */
  readonly stderr: string;
  /** Calls `listener` for every complete stdout line from now on; returns the unsubscribe. */
  onLine(listener: (line: string) => void): () => void;
  /**
   * Resolves with the first line (already seen or still to come) that matches; rejects when the
   * child exits without printing one, with its stderr in the message.
   */
  waitForLine(match: string | RegExp | ((line: string) => boolean)): Promise<string>;
  /** Writes to the child's stdin (needs `stdin: true`). */
  send(text: string): void;
  /** SIGKILL, now or after `delayMs`; resolves once the child is gone. */
  kill(delayMs?: number): Promise<ChildExit>;
  /** Resolves once, when the child has exited and its pipes are closed. */
  readonly exited: Promise<ChildExit>;
}

/**
 * Runs `node script ...args` with piped output, for crash tests that SIGKILL a real process at
 * a moment it announces on stdout: the child prints a line (with `writeSync`, so the line is in
 * the pipe before it goes on), the test kills it there, then checks what survived on disk.
 */
export function spawnChild(
  script: string,
  args: readonly string[] = [],
  options: SpawnChildOptions = {},
): ChildUnderTest {
  const child = spawn(process.execPath, [...(options.execArgv ?? []), script, ...args], {
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let stderr = '';
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const listener of [...listeners]) listener(line);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const guardMs = options.guardMs ?? 60_000;
  const guard = guardMs > 0 ? setTimeout(() => child.kill('SIGKILL'), guardMs) : undefined;
  guard?.unref();
  const exited = new Promise<ChildExit>((resolve) => {
    child.on('error', (error) => {
      stderr += `spawn failed: ${error.message}\n`;
    });
    child.on('close', (code, signal) => {
      if (guard) clearTimeout(guard);
      resolve({ code, signal, lines, stderr });
    });
  });

  const onLine = (listener: (line: string) => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const matcher = (match: string | RegExp | ((line: string) => boolean)) =>
    typeof match === 'function'
      ? match
      : typeof match === 'string'
        ? (line: string) => line.includes(match)
        : (line: string) => match.test(line);

  return {
    process: child,
    get lines() {
      return lines;
    },
    get stderr() {
      return stderr;
    },
    onLine,
    waitForLine(match) {
      const test = matcher(match);
      const seen = lines.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const off = onLine((line) => {
          if (!test(line)) return;
          off();
          resolve(line);
        });
        void exited.then((exit) => {
          off();
          reject(
            new Error(
              `the child exited (${exit.signal ?? exit.code}) before printing the line awaited; stderr: ${exit.stderr}`,
            ),
          );
        });
      });
    },
    send(text) {
      child.stdin?.write(text);
    },
    kill(delayMs = 0) {
      const sigkill = (): void => {
        child.kill('SIGKILL');
      };
      if (delayMs > 0) setTimeout(sigkill, delayMs);
      else sigkill();
      return exited;
    },
    exited,
  };
}
