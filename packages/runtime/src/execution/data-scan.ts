import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';

/** How deep the data scan descends below the data directory (reference §2.4). */
export const DATA_SCAN_MAX_DEPTH = 3;
/** How many entries of one directory the data scan looks at (sorted by name). */
export const DATA_SCAN_MAX_ENTRIES_PER_DIR = 100;
/** The default time limit of a data scan (`dataHashTimeLimit`). */
export const DATA_SCAN_DEFAULT_TIME_LIMIT_MS = 5000;
/** Names the scan never records: tool output and caches, not the user's data. */
const SKIPPED = new Set(['node_modules', '__pycache__', 'dist', 'build']);

/** One thing the bounded scan met, in the order the data hash records it. */
export type DataScanItem =
  | { kind: 'entry'; relative: string; path: string; stats: Stats }
  | { kind: 'error'; relative: string; code: string }
  | { kind: 'truncated'; relative: string; more: number }
  | { kind: 'timeout' };

/**
 * Walks a data directory the way both data hash versions do (reference §2.4): names sorted, dot
 * names and build folders skipped, at most 100 entries per directory, depth 3, a directory's
 * children right after it. The time limit is checked before each directory: a directory reached
 * after it is reported as `timeout` and not read (version 1 recorded exactly this, so the walk
 * must not change while version-1 hashes are compared).
 */
export function walkDataTree(
  root: string,
  options: { deadline: number },
  report: (item: DataScanItem) => void,
): void {
  const walk = (dir: string, relative: string, depth: number): void => {
    if (Date.now() > options.deadline) {
      report({ kind: 'timeout' });
      return;
    }
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      report({ kind: 'error', relative, code: errnoCode(error) ?? 'error' });
      return;
    }
    const kept = names.filter((name) => !name.startsWith('.') && !SKIPPED.has(name));
    for (const name of kept.slice(0, DATA_SCAN_MAX_ENTRIES_PER_DIR)) {
      const childRelative = relative === '' ? name : `${relative}/${name}`;
      const path = join(dir, name);
      let stats: Stats;
      try {
        stats = lstatSync(path);
      } catch (error) {
        report({ kind: 'error', relative: childRelative, code: errnoCode(error) ?? 'error' });
        continue;
      }
      report({ kind: 'entry', relative: childRelative, path, stats });
      if (stats.isDirectory() && depth < DATA_SCAN_MAX_DEPTH) walk(path, childRelative, depth + 1);
    }
    if (kept.length > DATA_SCAN_MAX_ENTRIES_PER_DIR) {
      report({ kind: 'truncated', relative, more: kept.length - DATA_SCAN_MAX_ENTRIES_PER_DIR });
    }
  };
  walk(root, '', 1);
}

/** The deadline of a scan that starts now. */
export function scanDeadline(timeLimitMs: number | undefined): number {
  return Date.now() + (timeLimitMs ?? DATA_SCAN_DEFAULT_TIME_LIMIT_MS);
}
