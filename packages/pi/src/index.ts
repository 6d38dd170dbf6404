// Public surface of @hankweave/pi: named exports only.

export {
  PI_BUILT_IN_PROVIDERS,
  PI_DEFAULT_API,
  type PiApi,
  piApiOf,
  piBaseUrlFor,
} from './pi-api.js';
export { buildPiArgs, PI_TOOLS, type PiArgsInput } from './pi-args.js';
export { createPiHarness, PiHarness, type PiHarnessOptions } from './pi-harness.js';
export { PI_BUSY_TIMEOUT_MS, PI_DEFAULT_IDLE_TIMEOUT_MS } from './pi-idle-times.js';
export { type PiModel, resolvePiModel } from './pi-model.js';
export { PI_PACKAGE, resolvePiCli } from './resolve-pi-cli.js';
export {
  type ClaudeRecord,
  type ClaudeUsage,
  finishPiTranslation,
  initialPiTranslation,
  type PiTranslation,
  type PiTranslationState,
  type PriceUsage,
  translatePiLine,
} from './translate-pi-line.js';
