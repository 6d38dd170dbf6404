import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import { HarnessError } from '@hankweave/harness';

/** How the process ended. */
export interface PiExit {
  exitCode: number | null;
  signal?: NodeJS.Signals;
}

// A tool's grandchild may keep stdout open after Pi exited: stop waiting for it after this.
const STDIO_DRAIN_MS = 2000;

/**
 * The Pi process of one start: its own process group (so a stop also ends the tools it runs),
 * stdout and stderr read line by line, the prompt written to stdin and closed. `terminate()` is
 * SIGTERM, then SIGKILL to the whole group after the grace period.
 */
export class PiProcess {
  readonly exited: Promise<PiExit>;
  private sentSignal: NodeJS.Signals | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private done = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    handlers: { stdout: (line: string) => void; stderr: (line: string) => void },
  ) {
    const closed = Promise.all([
      readLines(child.stdout, handlers.stdout),
      readLines(child.stderr, handlers.stderr),
    ]);
    this.exited = new Promise<PiExit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.done = true;
        clearTimeout(this.killTimer);
        if (this.sentSignal !== undefined) this.killGroup();
        const drain = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, STDIO_DRAIN_MS);
        void closed.then(() => {
          clearTimeout(drain);
          resolve(this.describeExit(code, signal));
        });
      });
    });
  }

  /**
   * Starts `node <cli> <args>` and resolves once it runs.
   * @throws {HarnessError} HARNESS_SPAWN_FAILED when it cannot start.
   */
  static async spawn(input: {
    cli: string;
    args: readonly string[];
    cwd: string;
    env: Record<string, string>;
    stdin: string;
    stdout: (line: string) => void;
    stderr: (line: string) => void;
  }): Promise<PiProcess> {
    const child = spawn(process.execPath, [input.cli, ...input.args], {
      cwd: input.cwd,
      env: input.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (cause) =>
        reject(
          new HarnessError(
            'HARNESS_SPAWN_FAILED',
            `Cannot start Pi (${input.cli}): ${cause.message}`,
            {
              cause,
              details: { cli: input.cli, cwd: input.cwd },
            },
          ),
        ),
      );
    });
    // Pi may exit before reading its prompt (a bad flag): that must not crash us with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input.stdin);
    return new PiProcess(child, child.pid as number, input);
  }

  /** SIGTERM now, SIGKILL to the process group after `graceMs`. Resolves when it has exited. */
  terminate(graceMs: number): Promise<PiExit> {
    if (!this.done && this.sentSignal === undefined) {
      this.sentSignal = 'SIGTERM';
      this.child.kill('SIGTERM');
      this.killTimer = setTimeout(() => {
        this.sentSignal = 'SIGKILL';
        if (!this.killGroup()) this.child.kill('SIGKILL');
      }, graceMs);
    }
    return this.exited;
  }

  private killGroup(): boolean {
    if (process.platform === 'win32') return false;
    try {
      process.kill(-this.pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }

  // A process that traps the signal exits with 128 + n: report the signal that ended it anyway.
  private describeExit(code: number | null, signal: NodeJS.Signals | null): PiExit {
    if (signal !== null) return { exitCode: code, signal };
    const sent = this.sentSignal;
    if (sent !== undefined && code === 128 + constants.signals[sent]) {
      return { exitCode: code, signal: sent };
    }
    return { exitCode: code };
  }
}

function readLines(
  stream: NodeJS.ReadableStream | null,
  onLine: (line: string) => void,
): Promise<void> {
  if (!stream) return Promise.resolve();
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', onLine);
  return new Promise((resolve) => lines.once('close', () => resolve()));
}
