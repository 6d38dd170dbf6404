import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import { HarnessError } from '../errors.js';
import { sandboxCommand } from '../sandbox/sandbox-command.js';
import { endSandbox, type ProcessIdentity, sandboxInit } from '../sandbox/sandbox-init.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';
import { sandboxedCommandPid } from '../sandbox/sandboxed-command-pid.js';

/** How the process ended. */
export interface ProcessExit {
  exitCode: number | null;
  signal?: NodeJS.Signals;
}

// After the process exits, its stdio may stay open when a grandchild inherited it; do not wait
// for that forever.
const STDIO_DRAIN_MS = 2000;

/**
 * One agent process: spawned in its own process group, stdout and stderr read line by line, the
 * prompt written to stdin. `terminate()` sends SIGTERM to the agent (which then stops its own
 * tools) and SIGKILL to the whole group after the grace period.
 *
 * With a `sandbox` policy the process is bubblewrap running the agent in the sandbox: the pid is
 * bubblewrap's, SIGTERM goes to the agent inside (so it can exit gracefully), and the SIGKILL to
 * bubblewrap's group ends the sandbox, whose PID namespace takes every process in it along.
 * However it ends, `exited` resolves only once that namespace is empty (see `endSandbox`).
 */
export class AgentProcess {
  readonly exited: Promise<ProcessExit>;
  private sentSignal: NodeJS.Signals | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private done = false;
  /** The sandbox's init, once found: the sandbox has ended only when it has exited. */
  private init: ProcessIdentity | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    handlers: { stdout: (line: string) => void; stderr: (line: string) => void },
    /** True when `child` is bubblewrap running the agent in a sandbox. */
    readonly sandboxed: boolean,
  ) {
    const stdoutClosed = readLines(child.stdout, handlers.stdout);
    const stderrClosed = readLines(child.stderr, handlers.stderr);
    this.exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.done = true;
        clearTimeout(this.killTimer);
        // A stopped agent may leave tool processes behind in its group: end them too.
        if (this.sentSignal !== undefined) this.killGroup();
        const drain = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, STDIO_DRAIN_MS);
        const ended = this.init ? endSandbox(this.init) : undefined;
        void Promise.all([stdoutClosed, stderrClosed, ended]).then(() => {
          clearTimeout(drain);
          resolve(this.describeExit(code, signal));
        });
      });
    });
  }

  /**
   * Spawns `command` and resolves once it runs.
   * @throws {HarnessError} HARNESS_SPAWN_FAILED when it cannot start.
   */
  static async spawn(input: {
    command: string;
    /** What the spawn error calls the agent (default: `command`). */
    label?: string;
    args: readonly string[];
    cwd: string;
    env: Record<string, string>;
    stdin: string;
    stdout: (line: string) => void;
    stderr: (line: string) => void;
    /** Run the command in this sandbox (see `sandboxCommand`). */
    sandbox?: SandboxPolicy;
  }): Promise<AgentProcess> {
    const line = input.sandbox
      ? sandboxCommand(input.sandbox, input)
      : { command: input.command, args: [...input.args], env: input.env };
    const child = spawn(line.command, line.args, {
      cwd: input.cwd,
      env: line.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (cause) =>
        reject(
          new HarnessError(
            'HARNESS_SPAWN_FAILED',
            `Cannot start ${input.label ?? input.command}${input.sandbox ? ` in the sandbox (${line.command})` : ''}: ${cause.message}`,
            {
              cause,
              details: { command: line.command, cwd: input.cwd },
            },
          ),
        ),
      );
    });
    // An agent that exits before reading its prompt must not crash us with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input.stdin);
    const agent = new AgentProcess(child, child.pid as number, input, input.sandbox !== undefined);
    if (agent.sandboxed) agent.findInit();
    return agent;
  }

  /** Looks for the sandbox's init (bubblewrap forks it at once) while the process runs. */
  private findInit(deadline = Date.now() + 2000): void {
    if (this.done) return;
    this.init = sandboxInit(this.pid);
    if (this.init === undefined && Date.now() < deadline)
      setTimeout(() => this.findInit(deadline), 2).unref();
  }

  /** SIGTERM now, SIGKILL to the process group after `graceMs`. Resolves when it has exited. */
  terminate(graceMs: number): Promise<ProcessExit> {
    if (!this.done && this.sentSignal === undefined) {
      this.sentSignal = 'SIGTERM';
      const inner = this.sandboxed ? sandboxedCommandPid(this.pid) : undefined;
      if (inner === undefined || !signalPid(inner, 'SIGTERM')) this.child.kill('SIGTERM');
      this.killTimer = setTimeout(() => {
        this.sentSignal = 'SIGKILL';
        if (!this.killGroup()) this.child.kill('SIGKILL');
      }, graceMs);
    }
    return this.exited;
  }

  /** SIGKILL to the agent's process group; false when there is none (left, or Windows). */
  private killGroup(): boolean {
    if (process.platform === 'win32') return false;
    try {
      process.kill(-this.pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }

  // Claude Code traps SIGTERM and exits with 128 + 15: report the signal that ended it anyway.
  private describeExit(code: number | null, signal: NodeJS.Signals | null): ProcessExit {
    if (signal !== null) return { exitCode: code, signal };
    const sent = this.sentSignal;
    if (sent !== undefined && code === 128 + constants.signals[sent]) {
      return { exitCode: code, signal: sent };
    }
    return { exitCode: code };
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
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
