import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { relativeInside } from '@hankweave/durable-io';
import { sendError, writeHead } from './answers.js';
import { HttpError } from './http-error.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page served in place of the dashboard when its assets were not built (no inline code). */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hankweave ui</title></head>
<body>
<h1>hankweave ui</h1>
<p>The server runs and answers its API under <code>/api/</code>, but the dashboard's web assets
were not built.</p>
<p>Build them, then restart <code>hankweave ui</code>:</p>
<pre>pnpm --filter @hankweave/dashboard build
pnpm --filter hankweave build</pre>
<p>(The CLI build copies <code>apps/dashboard/dist</code> into <code>apps/cli/dist/ui/</code>.)</p>
</body></html>
`;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the built dashboard from `assetsDir`: files by path (never outside the directory), and
 * `index.html` for every other path without a file extension, so deep links (`/executions/…`)
 * load the app, which routes them. Without a built `index.html`, those paths get a page saying
 * how to build it.
 */
export function serveAsset(
  assetsDir: string | undefined,
  pathname: string,
  response: ServerResponse,
): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    sendError(response, new HttpError(404, 'ASSET_NOT_FOUND', `No file ${pathname.slice(0, 200)}`));
    return;
  }
  const index = assetsDir ? join(assetsDir, 'index.html') : undefined;
  const relative =
    assetsDir && !decoded.includes('\0') ? relativeInside(assetsDir, `.${decoded}`) : undefined;
  const file = assetsDir && relative ? join(assetsDir, relative) : undefined;
  if (file && relative !== '' && isFile(file)) {
    send(response, file, 'private, max-age=3600');
    return;
  }
  if (extname(decoded) !== '' && decoded !== '/index.html') {
    sendError(
      response,
      new HttpError(404, 'ASSET_NOT_FOUND', `No file ${decoded.slice(0, 200)} in the dashboard`),
    );
    return;
  }
  if (index && existsSync(index)) {
    send(response, index, 'no-store');
    return;
  }
  writeHead(response, 200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(NOT_BUILT),
    'cache-control': 'no-store',
  });
  response.end(response.req.method === 'HEAD' ? undefined : NOT_BUILT);
}

function send(response: ServerResponse, file: string, cacheControl: string): void {
  writeHead(response, 200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': statSync(file).size,
    'cache-control': cacheControl,
  });
  if (response.req.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}
