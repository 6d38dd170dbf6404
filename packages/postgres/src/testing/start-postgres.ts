import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freeLoopbackPort, throwawayServerStop } from '@hankweave/durable-io/testing';
import pg from 'pg';
import { PostgresError } from '../errors.js';
import { findPostgresBinaries, type ServerUser, serverUser } from './postgres-binaries.js';

const run = promisify(execFile);

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /** Where the server's temporary directory is created (default `os.tmpdir()`). */
  dir?: string;
  /** The directory of `initdb` and `postgres` (default: see README "Test servers"). */
  binDir?: string;
  /**
   * Extra server settings (`-c name=value`), applied after the defaults: `fsync=off` and
   * `full_page_writes=off` (a test server's data is thrown away, so power-loss safety only costs
   * time; commits still wait for the WAL write, so `synchronous_commit` semantics are unchanged).
   */
  settings?: Readonly<Record<string, string | number | boolean>>;
  /** How long to wait for the server to accept connections. Default 30 000 ms. */
  startTimeoutMs?: number;
}

/** A running test server; `stop()` it (also done at process exit). */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:{port}/postgres`: the superuser, trust authentication. */
  readonly url: string;
  /** Always `127.0.0.1`: the server listens on loopback only. */
  readonly host: string;
  readonly port: number;
  /** The temporary directory: `data/` (the cluster), the unix socket, `postgres.log`. */
  readonly dir: string;
  /** Stops the server (fast shutdown) and removes its directory. Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const DEFAULT_SETTINGS = { fsync: 'off', full_page_writes: 'off' } as const;
const PORT_ATTEMPTS = 3;

/**
 * Starts a throwaway PostgreSQL server for tests and benchmarks: `initdb` in a new temporary
 * directory, then `postgres` on a free port of 127.0.0.1 (and a unix socket inside the
 * directory), trust authentication. As root, both run as the `postgres` user (`runuser`).
 *
 * @throws {PostgresError} POSTGRES_NOT_INSTALLED when the binaries (or, as root, the `postgres`
 *   user) are missing; the message says what to install.
 * @throws {PostgresError} POSTGRES_START_FAILED when initdb fails or the server does not come up
 *   (details: the end of its log).
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const binaries = findPostgresBinaries(options.binDir);
  const user = await serverUser();
  const dir = await mkdtemp(join(options.dir ?? tmpdir(), 'hankweave-pg-'));
  try {
    if (user.owner) await chown(dir, user.owner.uid, user.owner.gid);
    const data = join(dir, 'data');
    const init = user.command(binaries.initdb, [
      ...['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    ]);
    try {
      await run(init.file, init.args, { cwd: dir });
    } catch (error) {
      throw new PostgresError('POSTGRES_START_FAILED', `initdb failed: ${stderrOf(error)}`, {
        cause: error,
        details: { dir, binary: binaries.initdb },
      });
    }
    for (let attempt = 1; ; attempt++) {
      const port = await freeLoopbackPort();
      const started = await launch(user, binaries.postgres, dir, port, options);
      if (started.ok) return serverHandle(dir, port, started.child);
      const addressInUse = /could not bind|already in use/i.test(started.log);
      if (!addressInUse || attempt === PORT_ATTEMPTS) {
        throw new PostgresError('POSTGRES_START_FAILED', `postgres did not start: ${started.why}`, {
          details: { dir, port, log: started.log.slice(-2000) },
        });
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

type Launched = { ok: true; child: ChildProcess } | { ok: false; why: string; log: string };

async function launch(
  user: ServerUser,
  binary: string,
  dir: string,
  port: number,
  options: StartPostgresOptions,
): Promise<Launched> {
  const settings = {
    ...DEFAULT_SETTINGS,
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    ...options.settings,
  };
  const args = ['-D', join(dir, 'data'), '-p', String(port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const logPath = join(dir, 'postgres.log');
  const log = openSync(logPath, 'a');
  const command = user.command(binary, args);
  const child = spawn(command.file, command.args, { cwd: dir, stdio: ['ignore', log, log] });
  closeSync(log);
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  child.once('error', (error) => {
    exited = error.message;
  });
  const readLog = () => {
    try {
      return readFileSync(logPath, 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (exited === undefined) {
    if (await accepts(dir, port)) return { ok: true, child };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { ok: false, why: 'timed out waiting for connections', log: readLog() };
    }
    await sleep(50);
  }
  return { ok: false, why: exited, log: readLog() };
}

// Through the unix socket in our own directory: a TCP connection could reach another server that
// took the port meanwhile.
async function accepts(dir: string, port: number): Promise<boolean> {
  const client = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function serverHandle(dir: string, port: number, child: ChildProcess): PostgresServer {
  // The postmaster's own pid: as root the child is runuser, which only waits for it.
  const postmasterPid = (): number | undefined => {
    try {
      const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };
  const stop = throwawayServerStop({
    child,
    dir,
    // Smart shutdown first: a backend whose client just sent its goodbye (a pool's end() resolves
    // before its sockets close) exits by itself; a fast shutdown would send that client an error
    // (57P01) nobody listens for, which crashes its process.
    drain: { signal: 'SIGTERM', ms: 1_000 },
    // Then fast shutdown: disconnects the clients still there, no checkpoint wait for them.
    stopSignal: 'SIGINT',
    graceMs: 10_000,
    // Immediate shutdown when the test process ends without stop().
    exitSignal: 'SIGQUIT',
    signal: (name) => {
      const pid = postmasterPid() ?? child.pid;
      try {
        if (pid !== undefined) process.kill(pid, name);
      } catch {
        // Already gone.
      }
    },
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    dir,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function stderrOf(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : String(error);
  return text.trim().split('\n').slice(-5).join('\n');
}
