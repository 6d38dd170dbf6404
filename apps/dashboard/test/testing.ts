/**
 * `@hankweave/dashboard/testing`: what a test of the dashboard in a browser needs, for the tests
 * that live elsewhere (the CLI's tests of `hankweave ui` as a process): an HTTP client, Chromium through puppeteer-core,
 * a watch for console errors and CSP violations, and readers of an execution's files.
 */
export {
  attributesOf,
  CHROMIUM_MISSING,
  DEBIAN_CHROMIUM,
  findChromium,
  launchChromium,
  type PageProblem,
  PageWatch,
  SCREENSHOT_DIR,
  saveScreenshot,
  textsOf,
  waitForAll,
  waitForCount,
} from './ui/browser-session.js';
export { type RecordJson, type RunJson, recordsOf, stateFile } from './ui/executions.js';
export { type Answer, send } from './ui/http-client.js';
