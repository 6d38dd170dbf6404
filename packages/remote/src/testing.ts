import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * git's smart-HTTP CGI: `git-http-backend` in `git --exec-path` (Debian:
 * `/usr/lib/git-core/git-http-backend`).
 */
export const GIT_HTTP_BACKEND = join(
  spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout?.trim() || '/usr/lib/git-core',
  'git-http-backend',
);

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; a repository `name.git` in `root` is at `${url}/name.git`. */
  readonly url: string;
  /** The folder of bare repositories it serves. */
  readonly root: string;
  /** Requests answered so far (each `info/refs` GET and each `git-upload-pack` POST). */
  readonly requests: { method: string; path: string }[];
  /** Stops listening (the port is then refused: the remote is "down"); idempotent. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  /** Stops and removes `root`. */
  close(): Promise<void>;
}

/**
 * A git smart-HTTP server for tests: Debian git's `git http-backend` (CGI) behind a Node HTTP
 * server on 127.0.0.1, serving the bare repositories in `root` (a temporary folder unless
 * given). Needs the native git binary, which only tests use. Counts requests, so a test can
 * prove the cache answered without the network.
 */
export async function startGitHttpServer(options: { root?: string } = {}): Promise<GitHttpServer> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'hankweave-git-http-'));
  const requests: { method: string; path: string }[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: request.method ?? 'GET', path: url.pathname });
    runBackend(root, url, request, response);
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  let listening = true;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    requests,
    stop,
    restart: async () => {
      if (listening) return;
      await listen();
      listening = true;
    },
    close: async () => {
      await stop();
      if (options.root === undefined) rmSync(root, { recursive: true, force: true });
    },
  };
}

function runBackend(
  root: string,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const child = spawn(GIT_HTTP_BACKEND, [], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: request.method ?? 'GET',
      CONTENT_TYPE: header('content-type'),
      CONTENT_LENGTH: header('content-length'),
      HTTP_CONTENT_ENCODING: header('content-encoding'),
      GIT_PROTOCOL: header('git-protocol'),
      REMOTE_ADDR: '127.0.0.1',
      REMOTE_USER: '',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (sent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    let end = head.indexOf('\r\n\r\n');
    let skip = 4;
    if (end === -1) {
      end = head.indexOf('\n\n');
      skip = 2;
    }
    if (end === -1) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon === -1) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(name, value);
    }
    response.writeHead(status);
    response.write(head.subarray(end + skip));
    sent = true;
  });
  child.on('close', () => {
    if (!sent) response.writeHead(502);
    response.end();
  });
  child.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
}

/**
 * Runs the native git (tests only) with a fixed identity and no user config; returns stdout.
 * Throws with git's stderr when it fails.
 */
export function gitInTest(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'test',
      GIT_AUTHOR_EMAIL: 'test@example.invalid',
      GIT_COMMITTER_NAME: 'test',
      GIT_COMMITTER_EMAIL: 'test@example.invalid',
      ...env,
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}
