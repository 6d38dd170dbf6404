import { spawn } from 'node:child_process';
import { constants, createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, open, rm } from 'node:fs/promises';
import { dirname, join, posix, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { relativeInside } from '@hankweave/durable-io';
import { type CopyTreeListing, listCopyTree } from '@hankweave/files';
import { type SandboxPolicy, sandboxCommand } from '@hankweave/harness';
import type { RigOperation } from '@hankweave/types';
import { DATA_LINK_NAME } from '../execution/layout.js';
import { unsafePathMessage } from '../sandbox/safe-paths.js';

/** How one rig operation ended. */
export interface RigOperationResult {
  index: number;
  type: RigOperation['type'];
  ok: boolean;
  ignored: boolean;
  exitCode?: number;
  message?: string;
  failureType?: 'command_failed' | 'timeout' | 'other';
}

export interface RigSetupOptions {
  operations: readonly RigOperation[];
  hankDir: string;
  agentRoot: string;
  /** Environment of rig commands: the runtime's plus the codon's `env`. */
  env: NodeJS.ProcessEnv;
  /** Treat every failure as `allowFailure` (`--ignore-rig-failures`). */
  ignoreFailures?: boolean;
  /** Kill a command after this long (the original had no limit; neither is there by default). */
  commandTimeoutMs?: number;
  onOperation?: (index: number, operation: RigOperation) => void;
  /** A line of command output, throttled to one per second per stream (the last is kept). */
  onOutput?: (stream: 'stdout' | 'stderr', line: string, commandIndex: number) => void;
  signal?: AbortSignal;
  /**
   * Called after each operation with what it was ("rig operation 2 (command 'make')"); a message
   * fails that operation and ends the rig, even one that allows failure. The data guard: a rig
   * step that changed the user's data (see `guardRigSetup`).
   */
  checkAfterOperation?: (operation: string) => Promise<string | undefined>;
  /** Run commands in this OS sandbox (the execution's; see `executionSandboxPolicy`). */
  sandbox?: SandboxPolicy;
}

export interface RigSetupResult {
  results: RigOperationResult[];
  /** The first failure that was not allowed; rig setup stops there. */
  fatal?: RigOperationResult;
  durationMs: number;
}

const MAX_LINE = 500;
const THROTTLE_MS = 1000;

/**
 * Runs a codon's rig setup (reference §1.4, §5.6) in order: copies from the hank directory into
 * agentRoot (the target is replaced; it becomes `lastCopied`) and shell commands (cwd agentRoot or
 * the last copy target). A failure stops the rig unless the operation allows failure.
 */
export async function runRigSetup(options: RigSetupOptions): Promise<RigSetupResult> {
  const started = Date.now();
  const results: RigOperationResult[] = [];
  let lastCopied: string | undefined;
  for (const [index, operation] of options.operations.entries()) {
    options.onOperation?.(index, operation);
    let result: RigOperationResult;
    if (operation.type === 'copy') {
      const outcome = await copyOperation(options, operation.copy);
      if (outcome.ok) lastCopied = outcome.target;
      result = {
        index,
        type: 'copy',
        ok: outcome.ok,
        ignored: false,
        ...(outcome.ok ? {} : { message: outcome.message, failureType: 'other' as const }),
      };
    } else {
      const cwd =
        operation.command.workingDirectory === 'lastCopied' && lastCopied
          ? lastCopied
          : options.agentRoot;
      result = {
        index,
        type: 'command',
        ...(await runCommand(options, operation.command.run, cwd, index)),
      };
    }
    if (!result.ok && (operation.allowFailure || options.ignoreFailures)) result.ignored = true;
    const violation = await options.checkAfterOperation?.(
      `rig operation ${index + 1} (${operation.type === 'copy' ? `copy to ${operation.copy.to}` : `command '${operation.command.run}'`})`,
    );
    if (violation)
      result = { ...result, ok: false, ignored: false, message: violation, failureType: 'other' };
    results.push(result);
    if (!result.ok && !result.ignored)
      return { results, fatal: result, durationMs: Date.now() - started };
  }
  return { results, durationMs: Date.now() - started };
}

async function copyOperation(
  options: RigSetupOptions,
  copy: { from: string; to: string },
): Promise<{ ok: true; target: string } | { ok: false; message: string }> {
  const source = resolve(options.hankDir, copy.from);
  const target = resolve(options.agentRoot, copy.to);
  // Strictly inside: the root itself ('') is refused too.
  const inside = relativeInside(options.agentRoot, target);
  if (!inside) {
    return { ok: false, message: `copy target "${copy.to}" must be inside agentRoot` };
  }
  // The data link is the user's data: removing and copying there would go through the link.
  if (inside === DATA_LINK_NAME || inside.startsWith(`${DATA_LINK_NAME}/`)) {
    return {
      ok: false,
      message: `copy target "${copy.to}" is inside ${DATA_LINK_NAME}, the user's data, which a rig never writes; copy somewhere else in agentRoot`,
    };
  }
  if (!existsSync(source)) return { ok: false, message: `copy source ${source} does not exist` };
  // A previous codon's agent may have replaced a directory of agentRoot by a link to anywhere
  // (the user's data, another execution): the remove and the copy below must not go through it.
  // The target itself may be a link: it is removed as a link, never followed.
  const unsafe = await unsafePathMessage(options.agentRoot, inside, `copy target "${copy.to}"`);
  if (unsafe) return { ok: false, message: unsafe };
  // What to take: the tree filtered by the hank root's .gitignore or the defaults (a file named
  // as `from` is taken whatever the rules say). A link or a special file left after the rules
  // refuses the copy before anything is removed: the copy never follows a link.
  let listing: CopyTreeListing;
  try {
    listing = listCopyTree(options.hankDir, copy.from);
  } catch (error) {
    return { ok: false, message: `copy source ${copy.from}: ${(error as Error).message}` };
  }
  const refused = refusedEntry(listing);
  if (refused) return { ok: false, message: `copy source ${copy.from} ${refused}` };
  try {
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true });
    await copyListing(options.hankDir, listing, target);
    return { ok: true, target };
  } catch (error) {
    return {
      ok: false,
      message: `copy ${copy.from} → ${copy.to} failed: ${(error as Error).message}`,
    };
  }
}

function refusedEntry(listing: CopyTreeListing): string | undefined {
  const [link] = listing.links;
  if (link !== undefined)
    return `contains the symlink ${link}; a rig copies real files only (list it in the hank's .gitignore to skip it)`;
  const [special] = listing.special;
  if (special !== undefined) return `contains ${special}, which is not a regular file`;
  const [unreadable] = listing.unreadable;
  if (unreadable !== undefined) return `contains ${unreadable}, which cannot be read`;
  return undefined;
}

/**
 * Copies what `listing` names into `target` (which does not exist): directories first, then each
 * file opened without following a link and checked to be a regular file, written exclusively
 * (`wx`), its permission bits kept.
 */
async function copyListing(hankDir: string, listing: CopyTreeListing, target: string) {
  const under = (path: string) =>
    listing.kind === 'file' ? target : join(target, posix.relative(listing.from, path));
  if (listing.kind === 'directory') {
    await mkdir(target);
    for (const directory of listing.directories) await mkdir(under(directory));
  }
  for (const file of listing.files)
    await copyRegularFile(join(hankDir, file.path), under(file.path));
}

async function copyRegularFile(source: string, target: string): Promise<void> {
  const handle = await open(
    source,
    constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  );
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`${source} is not a regular file`);
    const mode = stats.mode & 0o777;
    await pipeline(
      handle.createReadStream({ autoClose: false }),
      createWriteStream(target, { flags: 'wx', mode }),
    );
    await chmod(target, mode);
  } finally {
    await handle.close();
  }
}

function runCommand(
  options: RigSetupOptions,
  run: string,
  cwd: string,
  commandIndex: number,
): Promise<Omit<RigOperationResult, 'index' | 'type'>> {
  return new Promise((resolvePromise) => {
    // Its own process group, so a timeout or abort kills the command's children too, not only the
    // shell (whose orphans would otherwise keep the pipes open). In the sandbox, the group is
    // bubblewrap's: killing it ends the sandbox, and its PID namespace every process in it, so
    // nothing the command started (`setsid nohup ...` included) outlives it.
    const shell = { command: '/bin/sh', args: ['-c', run] };
    const line = options.sandbox
      ? sandboxCommand(options.sandbox, { ...shell, cwd, env: definedEnv(options.env) })
      : { ...shell, env: options.env };
    const child = spawn(line.command, line.args, {
      cwd,
      env: line.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const onAbort = () => killGroup();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const tail: string[] = [];
    const streams = {
      stdout: throttledLines('stdout', commandIndex, options, tail),
      stderr: throttledLines('stderr', commandIndex, options, tail),
    };
    child.stdout.on('data', (chunk: Buffer) => streams.stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => streams.stderr.push(chunk));
    let timedOut = false;
    const timer = options.commandTimeoutMs
      ? setTimeout(() => {
          timedOut = true;
          killGroup();
        }, options.commandTimeoutMs)
      : undefined;
    const finish = (exitCode: number, message?: string) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      streams.stdout.end();
      streams.stderr.end();
      if (exitCode === 0 && !timedOut)
        return resolvePromise({ ok: true, ignored: false, exitCode });
      const output = tail.join('\n');
      const failureType =
        timedOut || /timed out|timeout|etimedout/i.test(output)
          ? 'timeout'
          : message
            ? 'other'
            : 'command_failed';
      resolvePromise({
        ok: false,
        ignored: false,
        exitCode,
        failureType,
        message:
          message ??
          `"${run}" exited with code ${exitCode}${timedOut ? ' (timed out)' : ''}${output ? `: ${output.slice(-300)}` : ''}`,
      });
    };
    child.on('error', (error) => finish(-1, `"${run}" could not start: ${error.message}`));
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : -1)));
  });
}

function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Splits a stream into lines, reports at most one per second (always the latest), keeps a tail. */
function throttledLines(
  stream: 'stdout' | 'stderr',
  commandIndex: number,
  options: RigSetupOptions,
  tail: string[],
) {
  let buffer = '';
  let pending: string | undefined;
  let lastSent = 0;
  let timer: NodeJS.Timeout | undefined;
  const send = () => {
    timer = undefined;
    if (pending === undefined) return;
    options.onOutput?.(stream, pending, commandIndex);
    pending = undefined;
    lastSent = Date.now();
  };
  const line = (text: string) => {
    const trimmed = text.trim().slice(0, MAX_LINE);
    if (trimmed === '') return;
    tail.push(trimmed);
    if (tail.length > 20) tail.shift();
    pending = trimmed;
    const wait = lastSent + THROTTLE_MS - Date.now();
    if (wait <= 0) send();
    else timer ??= setTimeout(send, wait);
  };
  return {
    push(chunk: Buffer) {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const text of lines) line(text);
    },
    end() {
      if (buffer !== '') line(buffer);
      buffer = '';
      if (timer) clearTimeout(timer);
      send();
    },
  };
}
