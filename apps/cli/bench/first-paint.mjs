// First paint of the dashboard in real headless Chromium (puppeteer-core on Debian's chromium):
// from navigation start to the first contentful paint, to the execution page's timeline with all
// its bars in the DOM and the frame after (on screen), and to the list page's rows. Each page load
// gets a fresh browser context (cold cache, the server's cookie set beforehand); the baseline is
// the same page of the tiny execution, loaded alternately with the big one.
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { median } from './api-vs-cli.mjs';
import { ASSETS_INDEX, startUi } from './processes.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Installed before any page script: records `performance.now()` (ms since navigation start) when
 * `selector` first matches `count` elements, and again after the next frame.
 */
function watchFor(selector, count) {
  const marks = {};
  const check = () => {
    if (marks.inDom !== undefined || document.querySelectorAll(selector).length < count) return;
    marks.inDom = performance.now();
    observer.disconnect();
    requestAnimationFrame(() =>
      setTimeout(() => {
        marks.onScreen = performance.now();
        window.__uiBench = marks;
      }, 0),
    );
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

async function loadOnce(browser, server, path, selector, count) {
  const context = await browser.createBrowserContext();
  try {
    await context.setCookie({
      name: `hankweave_ui_${server.port}`,
      value: server.token,
      domain: '127.0.0.1',
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
    });
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // A first same-origin document moves the tab to its site's renderer process, so the measured
    // navigation does not include a process start (it varies by 20 to 250 ms here). It loads no
    // asset: the HTTP cache stays cold.
    await page.goto(`${server.origin}/api/info`);
    await page.evaluateOnNewDocument(watchFor, selector, count);
    await page.goto(`${server.origin}${path}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__uiBench !== undefined, { timeout: 60_000 });
    const result = await page.evaluate(() => ({
      ...window.__uiBench,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      apiDone: Math.max(
        0,
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
          .map((entry) => entry.responseEnd),
      ),
    }));
    if (errors.length > 0) throw new Error(`page errors on ${path}: ${errors.join('; ')}`);
    return result;
  } finally {
    await context.close();
  }
}

/**
 * Loads each page `loads` times (after one warm-up load each), big and tiny alternately.
 * Returns per page `{ big, tiny }` medians of `fcp`, `inDom`, `onScreen` and `apiDone` (ms).
 */
export async function measurePaint(big, tiny, { loads, log }) {
  if (!existsSync(CHROMIUM)) {
    log(`  skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return undefined;
  }
  if (!existsSync(ASSETS_INDEX)) {
    log(
      `  skipped: no dashboard in ${ASSETS_INDEX} (pnpm --filter @hankweave/dashboard --filter hankweave build)`,
    );
    return undefined;
  }
  const servers = { big: await startUi(big.baseDir), tiny: await startUi(tiny.baseDir) };
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
  });
  const executions = { big, tiny };
  const pages = [
    {
      name: 'execution page: timeline with every bar',
      path: (execution) => `/executions/${encodeURIComponent(execution.id)}`,
      selector: (execution) =>
        `[data-testid="timeline"][data-bars="${execution.schedule.records.length}"] [data-testid="codon-bar"]`,
      count: (execution) => execution.schedule.records.length,
    },
    {
      name: 'list page: the execution row',
      path: () => '/',
      selector: () => '[data-testid="execution-row"]',
      count: () => 1,
    },
  ];
  try {
    const results = [];
    for (const page of pages) {
      const samples = { big: [], tiny: [] };
      for (let round = -1; round < loads; round++) {
        // Big first in even rounds, tiny first in odd ones: a drift in load hits both alike.
        for (const size of round % 2 === 0 ? ['big', 'tiny'] : ['tiny', 'big']) {
          const execution = executions[size];
          const sample = await loadOnce(
            browser,
            servers[size],
            page.path(execution),
            page.selector(execution),
            page.count(execution),
          );
          if (round >= 0) samples[size].push(sample);
        }
      }
      const medians = (list) =>
        Object.fromEntries(
          ['fcp', 'inDom', 'onScreen', 'apiDone'].map((key) => [
            key,
            median(list.map((s) => s[key])),
          ]),
        );
      results.push({ name: page.name, big: medians(samples.big), tiny: medians(samples.tiny) });
      log(`  ${page.name}: ${loads} loads each of big and tiny`);
    }
    return { chromium: await browser.version(), pages: results };
  } finally {
    await browser.close();
    await Promise.all([servers.big.close(), servers.tiny.close()]);
  }
}
