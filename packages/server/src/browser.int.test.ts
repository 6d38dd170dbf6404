import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServedWorld, startServedWorld } from '../test/server-world.js';

/** Debian's `chromium` (`apt-get install -y chromium`); the suite is skipped without it. */
function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}
const chromium = findChromium();
if (!chromium) {
  // biome-ignore lint/suspicious/noConsole: tells why the browser test did not run.
  console.warn(
    'browser.int.test.ts skipped: chromium is not installed (apt-get install -y chromium)',
  );
}

/**
 * A page that tries to drive the runtime from its own origin, even knowing the token, and reports
 * the outcome in its DOM and to its own server. `/hold` keeps the page's load event (which
 * `--dump-dom` waits for) pending until the outcome is known.
 */
function pageServer(
  target: () => { url: string; token: string },
): Promise<{ server: Server; port: number; outcome: Promise<string> }> {
  let report: (outcome: string) => void = () => undefined;
  const outcome = new Promise<string>((resolve) => {
    report = resolve;
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const html = (
    url: string,
    token: string,
  ) => `<!doctype html><html><body><p id="outcome">pending</p><script>
    const out = document.getElementById('outcome');
    const frame = document.createElement('iframe');
    frame.src = '/hold';
    document.body.appendChild(frame);
    let result = '';
    const finish = (text) => {
      if (result) return;
      result = text;
      out.textContent = text;
      fetch('/report?outcome=' + encodeURIComponent(text));
    };
    const ws = new WebSocket(${JSON.stringify(`${url}?token=${encodeURIComponent(token)}`)});
    ws.onopen = () => ws.send(JSON.stringify({ type: 'handshake', data: { mode: 'readandwrite', token: ${JSON.stringify(token)} } }));
    ws.onmessage = (message) => {
      if (JSON.parse(message.data).type === 'handshake.response') {
        ws.send(JSON.stringify({ id: 'evil', type: 'server.shutdown' }));
        finish('connected');
      }
    };
    ws.onclose = (event) => finish('refused ' + event.code);
    setTimeout(() => finish('timeout'), 5000);
  </script></body></html>`;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/report') {
      report(url.searchParams.get('outcome') ?? '');
      release();
      response.end('ok');
    } else if (url.pathname === '/hold') {
      void released.then(() => response.end('done'));
    } else {
      const { url: wsUrl, token } = target();
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(html(wsUrl, token));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, outcome }),
    );
  });
}

/** Loads the page in headless Chromium and returns the dumped DOM. */
function dumpDom(url: string, profile: string): Promise<string> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    '--dump-dom',
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile(chromium as string, args, { timeout: 30_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Serves the attack page, then loads it in Chromium against the world `start` makes. */
async function tryFromBrowser(
  start: (pageOrigin: string) => Promise<ServedWorld>,
): Promise<{ world: ServedWorld; dom: string; outcome: string }> {
  let world: ServedWorld | undefined;
  const page = await pageServer(() => ({
    url: world?.server.url ?? '',
    token: world?.server.token ?? '',
  }));
  cleanups.push(
    () =>
      new Promise<void>((done) => {
        page.server.close(() => done());
        page.server.closeAllConnections();
      }),
  );
  world = await start(`http://127.0.0.1:${page.port}`);
  const served = world;
  cleanups.push(() => served.dispose());
  const profile = mkdtempSync(join(tmpdir(), 'ws-chromium-'));
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
  const dom = await dumpDom(`http://127.0.0.1:${page.port}/`, profile);
  return { world, dom, outcome: await page.outcome };
}

describe.runIf(chromium)('a web page from another origin (headless Chromium)', () => {
  it('cannot connect, even with the token, and changes nothing', async () => {
    const { world, dom, outcome } = await tryFromBrowser(() => startServedWorld());
    expect(outcome).toBe('refused 1006');
    expect(dom).toContain('<p id="outcome">refused 1006</p>');
    expect(world.server.clients()).toEqual([]);
    expect(world.runtime.phase).toBe('idle');
    const log = readFileSync(world.runtime.layout.serverLog, 'utf8');
    expect(log).toMatch(
      /WebSocket upgrade refused \(403\): Origin http:\/\/127\.0\.0\.1:\d+ is not allowed/,
    );
  });

  it('connects, and can shut the runtime down, once its origin is allowed (the control)', async () => {
    const { world, dom, outcome } = await tryFromBrowser((origin) =>
      startServedWorld({}, { allowedOrigins: [origin] }),
    );
    expect(outcome).toBe('connected');
    expect(dom).toContain('<p id="outcome">connected</p>');
    expect((await world.runtime.finished).reason).toBe('client request');
  });
});
