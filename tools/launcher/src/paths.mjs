import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is tools/launcher/src/paths.mjs). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The CLI package, its built entry, and turbo. */
export const CLI_DIR = join(REPO_ROOT, 'apps', 'cli');
export const CLI_BIN = join(CLI_DIR, 'dist', 'bin.js');
export const TURBO = join(REPO_ROOT, 'node_modules', '.bin', 'turbo');

/**
 * Variables that keep turbo quiet: no telemetry notice on a first run (and no telemetry), no
 * "update available" box. Scripts set them for every turbo call the repository makes.
 */
export const QUIET_TURBO_ENV = {
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
};

/** `ms` as `1m42s`, `23s` or `850ms`. */
export function formatDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
