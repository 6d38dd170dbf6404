import { resolve } from 'node:path';
import { budgetSettings } from '../budget/budget-options.js';
import { DEFAULT_FILE_WATCH, type FileWatchSettings } from '../codon/agent-root-watch.js';
import { RuntimeError } from '../errors.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import type { RuntimeSettings } from './runtime-context.js';

/**
 * The runtime's settings from its options: defaults filled in, the output directory resolved
 * once (so a later `chdir` does not move it), optional fields left out rather than `undefined`.
 */
export function settingsFromOptions(options: CreateRuntimeOptions): RuntimeSettings {
  return {
    autostart: options.autostart ?? true,
    openRunAtStart: options.openRunAtStart ?? true,
    headless: options.headless ?? false,
    ignoreRigFailures: options.ignoreRigFailures ?? false,
    env: options.env ?? process.env,
    killGraceMs: options.killGraceMs ?? 5000,
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(options.rigCommandTimeoutMs !== undefined
      ? { rigCommandTimeoutMs: options.rigCommandTimeoutMs }
      : {}),
    ...(options.anthropicBaseUrl !== undefined
      ? { anthropicBaseUrl: options.anthropicBaseUrl }
      : {}),
    ...(options.piBaseUrl !== undefined ? { piBaseUrl: options.piBaseUrl } : {}),
    ...(options.piRetries !== undefined ? { piRetries: options.piRetries } : {}),
    ...(options.piApi !== undefined ? { piApi: options.piApi } : {}),
    ...(options.outputDirectory !== undefined
      ? { outputDirectory: resolve(options.outputDirectory) }
      : {}),
    overwriteOutput: options.overwriteOutput === true,
    sandbox: options.sandbox ?? 'auto',
    fileWatch: fileWatchOf(options),
    ...budgetSettings(options),
  };
}

/**
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION for a `fileWatch.minFiles` that is no count or a
 * `fileWatch.settleTimeoutMs` that is no positive whole number of ms.
 */
function fileWatchOf(options: CreateRuntimeOptions): FileWatchSettings {
  const watch = options.fileWatch;
  return {
    enabled: watch?.enabled ?? DEFAULT_FILE_WATCH.enabled,
    minFiles: wholeNumber('minFiles', watch?.minFiles, 0, 'files'),
    settleTimeoutMs: wholeNumber('settleTimeoutMs', watch?.settleTimeoutMs, 1, 'milliseconds'),
  };
}

/** A `fileWatch` number (its default when unset); refuses one that is not a whole `min` or more. */
function wholeNumber(
  key: 'minFiles' | 'settleTimeoutMs',
  given: number | undefined,
  min: number,
  unit: string,
): number {
  const value = given ?? DEFAULT_FILE_WATCH[key];
  if (Number.isSafeInteger(value) && value >= min) return value;
  throw new RuntimeError(
    'RUNTIME_INVALID_OPTION',
    `fileWatch.${key} must be a whole number of ${unit}, ${min} or more (got ${String(value)})`,
    { details: { option: `fileWatch.${key}` } },
  );
}
