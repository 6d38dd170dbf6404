import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort, throwawayServerStop } from '@hankweave/durable-io/testing';
import { Redis } from 'ioredis';

/** Options of {@link startRedis}. */
export interface StartRedisOptions {
  /** The server binary (default `redis-server` on the PATH). */
  binary?: string;
  /** Where the temporary directory is made (default `os.tmpdir()`). */
  dir?: string;
  /** How long to wait for the server to answer PING (default 10 000 ms). */
  startTimeoutMs?: number;
}

/** A throwaway Redis server; `stop()` it (it is also killed when the process exits). */
export interface RedisServer {
  /** `redis://127.0.0.1:{port}`. */
  readonly url: string;
  readonly port: number;
  /** Its working directory (removed by `stop()`). */
  readonly dir: string;
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const PORT_ATTEMPTS = 3;
const INSTALL_HINT =
  'Install it (Debian/Ubuntu: `apt-get install redis-server`) or pass `binary` with its path.';

/**
 * Starts `redis-server` for tests and benchmarks: loopback only, a free port, protected mode,
 * no persistence at all (`--save ''`, `--appendonly no`: a test server's data is thrown away),
 * in a new temporary directory.
 *
 * @throws {Error} naming `apt-get install redis-server` when the binary is missing, or with the
 *   server's output when it does not come up.
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? 'redis-server';
  const dir = mkdtempSync(join(options.dir ?? tmpdir(), 'hankweave-redis-'));
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freeLoopbackPort();
      const started = await launch(binary, dir, port, options.startTimeoutMs ?? 10_000);
      if (started.ok) return serverHandle(dir, port, started.child);
      // Another process may take the free port between our probe and the server's bind.
      if (!/address already in use/i.test(started.output) || attempt === PORT_ATTEMPTS) {
        throw new Error(
          `redis-server did not start: ${started.why}\n${started.output.slice(-2000)}`,
        );
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

type Launched = { ok: true; child: ChildProcess } | { ok: false; why: string; output: string };

async function launch(
  binary: string,
  dir: string,
  port: number,
  timeoutMs: number,
): Promise<Launched> {
  const args = [
    ...['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes'],
    ...['--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
    ...['--loglevel', 'warning'],
  ];
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exited: string | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    exited =
      error.code === 'ENOENT'
        ? `${binary} is not installed (not found on the PATH). ${INSTALL_HINT}`
        : error.message;
  });
  child.once('exit', (code, signal) => {
    exited ??= `exited with ${signal ?? code}`;
  });
  const deadline = Date.now() + timeoutMs;
  while (exited === undefined) {
    if (await answersPing(port)) return { ok: true, child };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { ok: false, why: 'timed out waiting for PING', output };
    }
    await sleep(25);
  }
  if (exited.includes('not installed')) throw new Error(exited);
  return { ok: false, why: exited, output };
}

async function answersPing(port: number): Promise<boolean> {
  // No retries: the loop above is the retry, and a refused connection must answer at once.
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function serverHandle(dir: string, port: number, child: ChildProcess): RedisServer {
  const stop = throwawayServerStop({ child, dir, stopSignal: 'SIGTERM', graceMs: 5_000 });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
