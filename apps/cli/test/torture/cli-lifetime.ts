import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BIN, CLI_ROOT } from '../cli-harness.js';
import { killProcessTree, type TreeKill } from './process-tree.js';

/** One event line the CLI printed with `--json` (only the fields the suite reads are typed). */
export interface PrintedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * When to kill a lifetime: after the nth line that `matches`, `afterMs` after the spawn, or as
 * soon as `path` exists (polled every 5 ms: a file an agent is in the middle of writing).
 */
export type KillTrigger =
  | { kind: 'line'; matches: (event: PrintedEvent) => boolean; nth: number }
  | { kind: 'timer'; afterMs: number }
  | { kind: 'file'; path: string };

/** How one CLI process ended. */
export interface Lifetime {
  /** Exit code, or null when it was killed. */
  code: number | null;
  /** True when the trigger fired and the tree was killed. */
  killed: boolean;
  /** The tree that was killed (when `killed`). */
  tree?: TreeKill;
  /** Every whole line printed on stdout before the process died, parsed (unparsable: skipped). */
  events: PrintedEvent[];
  /** Lines of stdout that were not JSON (none are expected with `--json`). */
  strayLines: string[];
  /** The event after which the kill was sent (line triggers). */
  triggerEvent?: PrintedEvent;
  stderr: string;
  durationMs: number;
}

/**
 * The binary under test: apps/cli/dist/bin.js, or `TORTURE_CLI_BIN` (another build of the CLI,
 * e.g. one linked against an older runtime, to show what the suite catches).
 */
export const TORTURE_BIN = process.env.TORTURE_CLI_BIN || BIN;

/** What a lifetime runs: the hank, its data, the model script and the execution directory. */
export interface LifetimeSpec {
  hankDir: string;
  dataDir: string;
  script: string;
  executionDir: string;
  env: NodeJS.ProcessEnv;
  trigger?: KillTrigger;
  /** A lifetime that neither exits nor is killed by then is killed and reported as hung. */
  timeoutMs?: number;
}

/**
 * Runs `hankweave <hank> <data> --scripted-model <script> --json -e <dir> -y` (which creates the
 * execution or resumes it) in its own session, so that the whole tree can be killed without
 * touching the test runner, and kills it when the trigger fires.
 */
export function runLifetime(spec: LifetimeSpec): Promise<Lifetime> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      TORTURE_BIN,
      spec.hankDir,
      spec.dataDir,
      '--scripted-model',
      spec.script,
      '--json',
      '-e',
      spec.executionDir,
      '-y',
    ],
    { env: spec.env, cwd: CLI_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const events: PrintedEvent[] = [];
  const strayLines: string[] = [];
  let pending = '';
  let stderr = '';
  let matched = 0;
  let killing: Promise<TreeKill> | undefined;
  let triggerEvent: PrintedEvent | undefined;
  let hung = false;

  const kill = (): void => {
    if (killing || child.pid === undefined || child.exitCode !== null) return;
    killing = killProcessTree(child.pid);
  };
  const trigger = spec.trigger;
  const timer =
    trigger?.kind === 'timer'
      ? setTimeout(kill, Math.max(0, trigger.afterMs))
      : trigger?.kind === 'file'
        ? setInterval(() => {
            if (existsSync(trigger.path)) kill();
          }, 5)
        : undefined;
  const watchdog = setTimeout(() => {
    hung = true;
    kill();
  }, spec.timeoutMs ?? 120_000);

  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
      if (line.trim() === '') continue;
      let event: PrintedEvent;
      try {
        event = JSON.parse(line) as PrintedEvent;
      } catch {
        strayLines.push(line);
        continue;
      }
      events.push(event);
      // Kill synchronously, in the handler that saw the acknowledgement: nothing of the test
      // runner runs between reading the line and stopping the CLI.
      if (
        trigger?.kind === 'line' &&
        !killing &&
        trigger.matches(event) &&
        ++matched >= trigger.nth
      ) {
        triggerEvent = event;
        kill();
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });

  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(timer);
      clearTimeout(watchdog);
      const finish = (tree?: TreeKill): void => {
        if (hung) {
          reject(
            new Error(
              `hankweave did not finish in ${spec.timeoutMs ?? 120_000} ms (killed)\n` +
                `stderr:\n${stderr}`,
            ),
          );
          return;
        }
        resolve({
          code: killing ? null : code,
          killed: killing !== undefined,
          ...(tree ? { tree } : {}),
          events,
          strayLines,
          ...(triggerEvent ? { triggerEvent } : {}),
          stderr,
          durationMs: Date.now() - started,
        });
      };
      if (killing) killing.then(finish, reject);
      else finish();
    });
  });
}
