import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  attributesOf,
  CHROMIUM_MISSING,
  findChromium,
  launchChromium,
  PageWatch,
  recordsOf,
  stateFile,
  textsOf,
  waitForCount,
} from '@hankweave/dashboard/testing';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, executionDirOf, runCli, type Sandbox, startCli } from './cli-harness.js';

const chromium = findChromium();
if (chromium === undefined) console.warn(`ui-first-hour.int.test.ts skipped: ${CHROMIUM_MISSING}`);
const describeInChromium = chromium === undefined ? describe.skip : describe;

const where = (name: string, value: string) => `[${name}=${JSON.stringify(value)}]`;
const testId = (id: string) => where('data-testid', id);

/**
 * Item 5 of issue 32 (and the dashboard's share of item 3), in headless Chromium: codon URLs by
 * codon id as well as by key, with a way back from a wrong one; loop iterations told apart in
 * every label; a readable time axis; a Data column that tells folders named `data` apart; an
 * interrupted run shown as interrupted.
 */
describeInChromium(`the dashboard's first hour (${chromium ?? 'none'})`, () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let ui: ReturnType<typeof startCli>;
  let origin: string;
  let page: Page;
  const watch = new PageWatch();
  const dirs = { alpha: '', nested: '', interrupted: '' };
  const open = (path: string) => page.goto(`${origin}${path}`, { waitUntil: 'load' });
  const id = (dir: string) => basename(dir);

  beforeAll(async () => {
    sandbox = createSandbox();
    const cli = (...args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 90_000 });
    const alpha = sandbox.copyExample('alpha');
    mkdirSync(join(sandbox.root, 'nested'));
    const nested = sandbox.copyExample(join('nested', 'alpha'));
    const slow = sandbox.copyExample('beta');
    const script = JSON.parse(readFileSync(slow.script, 'utf8'));
    script.conversations[1].turns[0].delayMs = 60_000;
    writeFileSync(slow.script, JSON.stringify(script));

    const interrupted = startCli(
      [slow.hankDir, slow.dataDir, '--scripted-model', slow.script],
      sandbox.env,
    );
    const [launched, first, second] = await Promise.all([
      launchChromium(chromium as string),
      cli(alpha.hankDir, alpha.dataDir, '--scripted-model', alpha.script),
      cli(nested.hankDir, nested.dataDir, '--scripted-model', nested.script),
      interrupted.waitFor(/summarize\s+started/, 60_000),
    ]);
    browser = launched;
    expect([first.code, second.code]).toEqual([0, 0]);
    dirs.alpha = executionDirOf(first.stdout);
    dirs.nested = executionDirOf(second.stdout);
    expect(await interrupted.stop('SIGINT')).toBe(0);
    dirs.interrupted = executionDirOf(interrupted.output());

    ui = startCli(['ui', '--base', sandbox.baseDir, '--json'], sandbox.env);
    await ui.waitFor(/"token"/);
    const printed = JSON.parse(ui.output()) as { url: string };
    origin = new URL(printed.url).origin;
    page = await watch.open(browser, 'first-hour');
    await page.goto(printed.url, { waitUntil: 'load' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (ui) expect(await ui.stop('SIGINT')).toBe(0);
    sandbox?.cleanup();
  });

  it('tells the three folders named `data` apart in the Data column', async () => {
    await open('/');
    await waitForCount(page, testId('execution-row'), 3);
    const rows = await page.evaluate(
      (row: string, cell: string) =>
        Array.from(
          (
            globalThis as unknown as {
              document: {
                querySelectorAll(s: string): ArrayLike<{
                  getAttribute(name: string): string | null;
                  querySelector(s: string): { textContent: string | null; title: string } | null;
                }>;
              };
            }
          ).document.querySelectorAll(row),
        ).map((element) => {
          const data = element.querySelector(cell);
          return { label: data?.textContent ?? '', path: data?.title ?? '' };
        }),
      testId('execution-row'),
      testId('execution-data'),
    );
    const labels = rows.map((row) => row.label);
    expect(new Set(labels).size).toBe(3);
    for (const row of rows) {
      expect(row.label).not.toBe('data');
      expect(row.path.endsWith(row.label)).toBe(true);
    }
    expect(labels).toContain('nested/alpha/data');
    expect(labels).toContain('beta/data');
  });

  it('shows an interrupted run as interrupted: list, header, timeline, run tree, codon', async () => {
    const row = `${testId('execution-row')}${where('data-id', id(dirs.interrupted))}`;
    await page.waitForSelector(row);
    expect(
      await attributesOf(page, `${row} ${testId('execution-status')}`, ['data-status']),
    ).toEqual([{ 'data-status': 'interrupted' }]);
    expect((await textsOf(page, `${row} ${testId('execution-codons')}`))[0]).toContain('■1');

    await open(`/executions/${id(dirs.interrupted)}`);
    await page.waitForSelector(
      `${testId('execution-header')} ${testId('execution-status')}${where('data-status', 'interrupted')}`,
    );
    const summarize = recordsOf(stateFile(dirs.interrupted)).find(
      ({ record }) => record.codonId === 'summarize',
    );
    await page.waitForSelector(
      `${testId('codon-bar')}${where('data-key', summarize?.key ?? '')}${where('data-status', 'interrupted')}`,
    );
    expect(await attributesOf(page, testId('run-node'), ['data-status'])).toEqual([
      { 'data-status': 'interrupted' },
    ]);
    await open(`/executions/${id(dirs.interrupted)}/codons/summarize`);
    await page.waitForSelector(`${testId('codon-status')}${where('data-status', 'interrupted')}`);
    expect((await textsOf(page, testId('codon-failure')))[0]).toContain(
      'Interrupted by Ctrl-C (SIGINT)',
    );
  });

  it('opens a codon by its id (the newest attempt) as well as by its key', async () => {
    const records = recordsOf(stateFile(dirs.alpha));
    const keyOf = (codonId: string) =>
      records.filter(({ record }) => record.codonId === codonId).at(-1)?.key as string;
    await open(`/executions/${id(dirs.alpha)}/codons/summarize`);
    await page.waitForSelector(`${testId('codon-header')}${where('data-key', keyOf('summarize'))}`);
    expect(await textsOf(page, testId('codon-title'))).toEqual(['Summarise the observations']);
    // Its events are read through the key the id resolved to.
    await page.waitForSelector(testId('codon-event'));
    // A loop codon's id opens its newest iteration.
    await open(`/executions/${id(dirs.alpha)}/codons/polish-pass`);
    await page.waitForSelector(
      `${testId('codon-header')}${where('data-key', keyOf('polish-pass#1'))}`,
    );
    expect(await textsOf(page, testId('codon-title'))).toEqual(['Polish the summary #1']);
    await open(
      `/executions/${id(dirs.alpha)}/codons/${encodeURIComponent(keyOf('polish-pass#0'))}`,
    );
    await page.waitForSelector(
      `${testId('codon-header')}${where('data-key', keyOf('polish-pass#0'))}`,
    );
    expect(await textsOf(page, testId('codon-title'))).toEqual(['Polish the summary #0']);
  });

  it('answers a codon that does not exist with a way back: the execution and its codons', async () => {
    await open(`/executions/${id(dirs.alpha)}/codons/no-such-codon`);
    await page.waitForSelector(`${testId('error-panel')}${where('data-code', 'CODON_NOT_FOUND')}`);
    await page.waitForSelector(testId('codon-link'));
    const links = await attributesOf(page, testId('codon-link'), ['href']);
    expect(
      links.map((link) =>
        decodeURIComponent(link.href ?? '')
          .split('/')
          .at(-1),
      ),
    ).toEqual(['observe', 'summarize', 'polish-pass#0', 'polish-pass#1']);
    await page.locator(testId('back-to-execution')).click();
    await page.waitForSelector(`${testId('execution-header')}${where('data-id', id(dirs.alpha))}`);
    expect(new URL(page.url()).pathname).toBe(`/executions/${id(dirs.alpha)}`);
  });

  it('tells loop iterations apart in the cost labels, even cut short, and in the tooltip', async () => {
    await page.setViewport({ width: 720, height: 900 });
    await open(`/executions/${id(dirs.alpha)}`);
    await page.waitForSelector(testId('cost-codon-row'));
    const rows = await page.evaluate(
      (rowSelector: string, tagSelector: string) => {
        type Box = { left: number; right: number; width: number };
        type El = {
          getAttribute(name: string): string | null;
          querySelector(s: string): (El & { textContent: string | null }) | null;
          getBoundingClientRect(): Box;
        };
        const doc = (
          globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }
        ).document;
        return Array.from(doc.querySelectorAll(rowSelector)).map((row) => {
          const label = row.querySelector('.bar-label');
          const tag = row.querySelector(tagSelector);
          const box = label?.getBoundingClientRect();
          const tagBox = tag?.getBoundingClientRect();
          return {
            codonId: row.getAttribute('data-codon-id'),
            tag: tag?.textContent ?? '',
            // The tag lies wholly inside the label's box: nothing of it is cut off.
            visible:
              box !== undefined &&
              tagBox !== undefined &&
              tagBox.width > 0 &&
              tagBox.left >= box.left &&
              tagBox.right <= box.right + 0.5,
          };
        });
      },
      testId('cost-codon-row'),
      testId('bar-label-tag'),
    );
    const polish = rows.filter((row) => row.codonId?.startsWith('polish-pass#'));
    expect(polish).toEqual([
      { codonId: 'polish-pass#0', tag: '#0', visible: true },
      { codonId: 'polish-pass#1', tag: '#1', visible: true },
    ]);
    const records = recordsOf(stateFile(dirs.alpha));
    const second = records.find(({ record }) => record.codonId === 'polish-pass#1')?.key as string;
    await page.hover(`${testId('codon-bar')}${where('data-key', second)}`);
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as {
            document: { querySelector(s: string): { textContent: string | null } | null };
          }
        ).document
          .querySelector('[data-testid="timeline-tooltip"] strong')
          ?.textContent?.includes('#1') === true,
    );
    await page.setViewport({ width: 1280, height: 900 });
  });

  it("labels the codon page's time axis by seconds since the start, ticks apart", async () => {
    await open(`/executions/${id(dirs.alpha)}/codons/observe`);
    await page.waitForSelector(`${testId('usage-chart')}[data-x-labels]`);
    const [chart] = await attributesOf(page, testId('usage-chart'), [
      'data-x-labels',
      'data-x-gap',
    ]);
    const labels = JSON.parse(chart?.['data-x-labels'] ?? '[]') as string[];
    expect(labels.length).toBeGreaterThan(1);
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(label).toMatch(/^\d+(\.\d+)?s$/);
    // Each label fits in the gap to the next tick (about 7 px a character at the axis' size).
    const widest = Math.max(...labels.map((label) => label.length));
    expect(Number(chart?.['data-x-gap'])).toBeGreaterThan(widest * 7 + 8);
  });

  it('raised no console error, uncaught exception or CSP violation', () => {
    // The 404 answer of the wrong codon is the one expected console error (a failed fetch).
    expect(
      watch.problems.filter((problem) => !(problem.kind === 'console' && /404/.test(problem.text))),
    ).toEqual([]);
  });
});
