import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';
import type { CommandLine } from '@hankweave/inspection';
import { type ApiContext, handleApi } from './api/routes.js';
import { defaultAssetsDir } from './assets-dir.js';
import { DashboardError } from './errors.js';
import { ExecutionCatalog } from './execution-catalog.js';
import type { FleetSource } from './fleet-source.js';
import { sendError, sendText, writeHead } from './http/answers.js';
import { HttpError } from './http/http-error.js';
import {
  allowedHosts,
  isLoopback,
  newToken,
  presentedToken,
  sessionCookie,
  tokenMatches,
} from './http/security.js';
import { serveAsset } from './http/static-assets.js';

/** Options of {@link startUiServer}. */
export interface UiServerOptions {
  /** The executions directory to serve. */
  baseDir: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default `127.0.0.1`. Any non-loopback address needs `allowRemote`. */
  host?: string;
  allowRemote?: boolean;
  /** Allow actions (rollback, skip, stop, next). Default false. */
  write?: boolean;
  /** The built dashboard; default the bundled copy (see `defaultAssetsDir`). */
  assetsDir?: string;
  /** Default: 32 random bytes. */
  token?: string;
  /** Receives one line per unexpected (500) error. */
  log?: (line: string) => void;
  /** A fleet's database (`--postgres`): its mirrored executions are listed too; closed with the server. */
  fleet?: FleetSource;
  /** The version `GET /api/info` reports: the serving program's (the CLI passes its own). */
  version?: string;
  /** How hints spell the commands they suggest; default `hankweave ...` (the CLI passes its own). */
  command?: CommandLine;
}

/** A running dashboard server. */
export interface UiServer {
  /** The URL to open: it carries the token, which the first load trades for a cookie. */
  url: string;
  port: number;
  host: string;
  token: string;
  close(): Promise<void>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST']);
/** A `..` path segment, also percent-encoded. */
const CLIMBING = /(^|\/|%2f|\\|%5c)(\.|%2e){2}(\/|%2f|\\|%5c|$)/i;

/** Host headers a wildcard bind answers: loopback, this machine's name and addresses. */
function wildcardHosts(port: number): string[] {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address] : []));
  return [hostname(), ...addresses].map((host) =>
    isIP(host) === 6 ? `[${host}]:${port}` : `${host.toLowerCase()}:${port}`,
  );
}

/**
 * Starts the dashboard server: the JSON API of `@hankweave/dashboard/api-types`, the built web
 * app, and the security of the runtime's WebSocket server (README of `hankweave ui`): loopback
 * by default, a per-server token traded for an HttpOnly SameSite=Strict cookie, a Host check
 * against DNS rebinding, no CORS, a strict CSP, actions only with `write` and a same-origin
 * request carrying `x-hankweave-action`.
 * @throws {DashboardError} DASHBOARD_INVALID_OPTION for a non-loopback host without
 *   `allowRemote`; DASHBOARD_LISTEN_FAILED when the port cannot be bound.
 */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.allowRemote)
    throw new DashboardError(
      'DASHBOARD_INVALID_OPTION',
      `--host ${host} is not a loopback address`,
      'The dashboard shows your executions to whoever reaches it: add --allow-remote if you mean it (the token is still required).',
    );
  const baseDir = resolve(options.baseDir);
  const token = options.token ?? newToken();
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  const stopping = new AbortController();
  const catalog = new ExecutionCatalog(baseDir, options.fleet);
  const context: ApiContext = {
    catalog,
    info: {
      version: options.version ?? '0.0.0',
      baseDir,
      write: options.write === true,
      fleet: options.fleet !== undefined,
    },
    stopping: stopping.signal,
    ...(options.command ? { command: options.command } : {}),
  };
  let allowed = new Set<string>();
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const hostHeader = (request.headers.host ?? '').toLowerCase();
    if (!allowed.has(hostHeader)) {
      sendText(
        response,
        421,
        `Misdirected request: this server does not answer for ${hostHeader || 'a request without Host'}.\n`,
      );
      return;
    }
    if (!METHODS.has(request.method ?? '')) {
      response.setHeader('allow', 'GET, HEAD, POST');
      sendText(response, 405, 'Method not allowed.\n');
      return;
    }
    const url = new URL(request.url ?? '/', `http://${hostHeader}`);
    const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');
    const offered = url.searchParams.get('token');
    if (!isApi && request.method === 'GET' && offered !== null) {
      if (!tokenMatches(offered, token)) {
        sendText(response, 401, 'Wrong token: open the URL that `hankweave ui` printed.\n');
        return;
      }
      // Trade the token for a cookie, and drop it from the address bar (and from history).
      url.searchParams.delete('token');
      writeHead(response, 302, {
        location: `${url.pathname}${url.search}`,
        'set-cookie': sessionCookie(port, token),
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }
    const presented = presentedToken(request, port);
    if (presented === undefined || !tokenMatches(presented, token)) {
      if (isApi)
        throw new HttpError(
          401,
          'UNAUTHORIZED',
          'No valid token or session cookie',
          'Open the URL that `hankweave ui` printed (it carries the token).',
        );
      sendText(
        response,
        401,
        'Unauthorized: open the URL that `hankweave ui` printed (it carries the token).\n',
      );
      return;
    }
    // The URL parser resolves `..` silently: a path that tried to climb is refused as such.
    const rawPath = (request.url ?? '/').split('?')[0] ?? '/';
    if (CLIMBING.test(rawPath))
      throw new HttpError(404, 'NOT_FOUND', `No file or route ${rawPath.slice(0, 200)}`);
    if (isApi) await handleApi(context, request, response, url);
    else if (request.method === 'POST') sendText(response, 405, 'Method not allowed.\n');
    else serveAsset(assetsDir, url.pathname, response);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!(error instanceof HttpError) && options.log)
        options.log(
          `${request.method} ${request.url?.split('?')[0]}: ${error instanceof Error ? error.message : String(error)}`,
        );
      sendError(response, error);
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (error) =>
      fail(
        new DashboardError(
          'DASHBOARD_LISTEN_FAILED',
          `Cannot listen on ${host}:${options.port ?? 0} (${errnoCode(error) ?? (error as Error).message})`,
          errnoCode(error) === 'EADDRINUSE'
            ? 'Another program uses that port: pick another with --port, or --port 0 for any free one.'
            : 'Check --host and --port.',
        ),
      ),
    );
    server.listen(options.port ?? 0, host, () => done());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  allowed = allowedHosts(host, port);
  if (host === '0.0.0.0' || host === '::')
    for (const name of wildcardHosts(port)) allowed.add(name);
  const shownHost =
    isIP(host) === 6 ? `[${host}]` : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    host,
    token,
    close() {
      closing ??= (async () => {
        stopping.abort();
        await new Promise<void>((done) => {
          server.close(() => done());
          server.closeIdleConnections();
          // Live streams end on the abort above; anything still open after a second is cut.
          setTimeout(() => server.closeAllConnections(), 1000).unref();
        });
        await catalog.close();
      })();
      return closing;
    },
  };
}
