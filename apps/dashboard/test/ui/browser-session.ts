import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';

/** The monorepo's root (this file is apps/dashboard/test/ui/browser-session.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Where the browser tests save their screenshots: gitignored, kept by CI as artifacts. */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'artifacts', 'screenshots');
/** Debian's Chromium, the one `.ci/run` installs. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Why the browser tests did not run, and how to make them run. */
export const CHROMIUM_MISSING = `no Chromium at $CHROMIUM_PATH or ${DEBIAN_CHROMIUM}: install Debian's (apt-get install -y chromium, as .ci/run does) or point CHROMIUM_PATH at a Chromium binary`;

/** `CHROMIUM_PATH` when it names a file, else Debian's Chromium; undefined when neither exists. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [env.CHROMIUM_PATH, DEBIAN_CHROMIUM].find(
    (path): path is string => path !== undefined && path !== '' && existsSync(path),
  );
}

/** Headless Chromium through puppeteer-core; `--no-sandbox` only when running as root. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    defaultViewport: { width: 1280, height: 800 },
  });
}

/** Something a page reported that a correct dashboard never causes. */
export interface PageProblem {
  page: string;
  kind: 'console' | 'pageerror' | 'csp';
  text: string;
}

const CSP_BINDING = '__hankweaveTestCspViolation';
/**
 * Installed before any script of the page runs: reports every Content-Security-Policy violation
 * (a blocked script, style, image or fetch) to the test through an exposed binding.
 */
const CSP_LISTENER = `document.addEventListener('securitypolicyviolation', (event) => {
  globalThis.${CSP_BINDING}(event.violatedDirective + ' blocked ' + (event.blockedURI || '(inline)') +
    ' in ' + event.sourceFile + ':' + event.lineNumber);
});`;

/**
 * Opens pages and records each one's console errors, uncaught exceptions and CSP violations, by
 * page label: the dashboard's pages must end with none.
 */
export class PageWatch {
  readonly problems: PageProblem[] = [];

  /** A new tab in `context` (the browser's default one unless given), watched from the start. */
  async open(from: Browser | BrowserContext, label: string): Promise<Page> {
    const page = await from.newPage();
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const where = message.location().url;
      this.problems.push({
        page: label,
        kind: 'console',
        text: where ? `${message.text()} (${where})` : message.text(),
      });
    });
    page.on('pageerror', (error) =>
      this.problems.push({
        page: label,
        kind: 'pageerror',
        text: error instanceof Error ? error.message : String(error),
      }),
    );
    await page.exposeFunction(CSP_BINDING, (text: string) =>
      this.problems.push({ page: label, kind: 'csp', text }),
    );
    await page.evaluateOnNewDocument(CSP_LISTENER);
    return page;
  }

  /** The problems of the pages whose label passes `which`. */
  of(which: (label: string) => boolean): PageProblem[] {
    return this.problems.filter((problem) => which(problem.page));
  }
}

/** Saves a full-page PNG as `artifacts/screenshots/<name>.png`; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Values the in-page functions below see: only what they use, the CLI compiles without DOM. */
interface InPageElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
}
declare const document: { querySelectorAll(selector: string): ArrayLike<InPageElement> };

/** The given attributes of every element matching `selector`, in document order. */
export function attributesOf<Name extends string>(
  page: Page,
  selector: string,
  names: readonly Name[],
): Promise<Record<Name, string | null>[]> {
  return page.evaluate(
    (selector: string, names: readonly string[]) =>
      Array.from(document.querySelectorAll(selector)).map((element) =>
        Object.fromEntries(names.map((name) => [name, element.getAttribute(name)])),
      ),
    selector,
    names,
  ) as Promise<Record<Name, string | null>[]>;
}

/** The text of every element matching `selector`, in document order. */
export function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    (selector: string) =>
      Array.from(document.querySelectorAll(selector)).map((element) => element.textContent ?? ''),
    selector,
  );
}

/** Waits until `selector` matches at least `count` elements. */
export async function waitForCount(
  page: Page,
  selector: string,
  count: number,
  timeout = 15_000,
): Promise<void> {
  await page.waitForFunction(
    (selector: string, count: number) => document.querySelectorAll(selector).length >= count,
    { timeout },
    selector,
    count,
  );
}

/**
 * Waits for a moment at which every selector matches at once, checked after each DOM mutation
 * (so a state that lasts one render is not missed).
 */
export async function waitForAll(
  page: Page,
  selectors: readonly string[],
  timeout = 15_000,
): Promise<void> {
  await page.waitForFunction(
    (selectors: readonly string[]) =>
      selectors.every((selector) => document.querySelectorAll(selector).length > 0),
    { timeout, polling: 'mutation' },
    selectors,
  );
}
