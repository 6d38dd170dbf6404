import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one attempt of the hostile page came to. */
export type Attempt =
  | { rejected: string }
  | { type: string; status: number; body: string; headers: string[] };

/** The four attempts the page makes on the dashboard, by name. */
export interface HostileOutcome {
  /** A CORS read of `/api/executions` with the browser's cookies. */
  read: Attempt;
  /** The same read in `no-cors` mode (an opaque answer). */
  opaqueRead: Attempt;
  /** The action as the dashboard sends it (JSON, `x-hankweave-action`): needs a preflight. */
  action: Attempt;
  /** The action as a simple request (`no-cors`, text/plain): sent without a preflight. */
  simpleAction: Attempt;
}

/**
 * The page: one module script that tries to read the dashboard's API and to trigger an action
 * from its own origin, with the browser's cookies, and writes what each attempt got into
 * `#outcome` (JSON) once all are done.
 */
function hostileHtml(target: string, actionPath: string): string {
  return `<!doctype html><html><head><title>another site</title></head><body>
<h1>Another origin</h1><pre id="outcome">pending</pre>
<script type="module">
const target = ${JSON.stringify(target)};
const actionPath = ${JSON.stringify(actionPath)};
const body = JSON.stringify({ confirm: true, target: 'last-success' });
const attempt = async (init, path) => {
  try {
    const response = await fetch(target + path, { credentials: 'include', ...init });
    return {
      type: response.type,
      status: response.status,
      body: await response.text(),
      headers: [...response.headers.keys()],
    };
  } catch (error) {
    return { rejected: error.name };
  }
};
const outcome = {
  read: await attempt({}, '/api/executions'),
  opaqueRead: await attempt({ mode: 'no-cors' }, '/api/executions'),
  action: await attempt(
    { method: 'POST', headers: { 'content-type': 'application/json', 'x-hankweave-action': '1' }, body },
    actionPath,
  ),
  simpleAction: await attempt(
    { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body },
    actionPath,
  ),
};
document.getElementById('outcome').textContent = JSON.stringify(outcome);
</script></body></html>`;
}

/** A page of another origin (its own loopback port), serving {@link hostileHtml} at `/`. */
export async function startHostilePage(
  target: string,
  actionPath: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const html = hostileHtml(target, actionPath);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
