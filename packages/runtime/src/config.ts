// `@hankweave/runtime/config`: the runtime's settings (hankweave.json, HANKWEAVE_RUNTIME_*, flags)
// resolved and described, and which agent adapters are installed, without loading the
// orchestrator (its agents, checkpoints and sentinels' model SDKs). For `hankweave validate` and
// other tools that check a hank or its settings before anything runs.

export { RUNTIME_CONFIG_FILE } from './config/read-runtime-config.js';
export {
  type ConfigEntry,
  describeSource,
  type ResolvedRuntimeConfig,
  type RuntimeConfigInputs,
  resolveRuntimeConfig,
} from './config/resolve-runtime-config.js';
export {
  CONFIG_SOURCES,
  type ConfigSource,
  type ConfigValue,
  envNameOf,
  RUNTIME_CONFIG_KEYS,
} from './config/runtime-config-keys.js';
export { RUNTIME_ERROR_CODES, RuntimeError, type RuntimeErrorCode } from './errors.js';
export { ADAPTER_PACKAGES, installedHarnesses } from './runtime/default-harness.js';
