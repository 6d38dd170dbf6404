import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { scanDeadline, walkDataTree } from './data-scan.js';

/**
 * Data hash version 1, the original runtime's (reference §2.4): 12 hex characters of a sha256
 * over metadata with modification times. A file is hashed by name, size, mtime and content; a
 * directory by names, sizes and mtimes of a bounded scan, no content.
 *
 * Kept only to recognise executions recorded with it (an `execution-meta.json` without
 * `dataHashVersion`): `touch` changes this hash, so new executions use `hashDataSource`.
 */
export function hashDataSourceWithMtimes(
  dataPath: string,
  options: { timeLimitMs?: number } = {},
): string {
  const absolute = resolve(dataPath);
  const stats = statSync(absolute);
  const hash = createHash('sha256');
  if (stats.isFile()) {
    hash.update(`file:${basename(absolute)}:${stats.size}:${Math.floor(stats.mtimeMs)}`);
    hash.update(readFileSync(absolute));
    return hash.digest('hex').slice(0, 12);
  }
  const records: string[] = [];
  walkDataTree(absolute, { deadline: scanDeadline(options.timeLimitMs) }, (item) => {
    switch (item.kind) {
      case 'timeout':
        records.push('TIMEOUT:scan_truncated');
        return;
      case 'error':
        records.push(`e:${item.relative}:${item.code}`);
        return;
      case 'truncated':
        records.push(`TRUNCATED:${item.relative}:${item.more}_more_items`);
        return;
      case 'entry': {
        const mtime = Math.floor(item.stats.mtimeMs / 1000);
        records.push(
          item.stats.isDirectory()
            ? `d:${item.relative}:${mtime}`
            : `f:${item.relative}:${item.stats.size}:${mtime}`,
        );
      }
    }
  });
  // A nearly empty directory would hash alike wherever it is; its path tells them apart.
  if (records.length < 5) records.push(`path:${absolute}`);
  hash.update(records.join('\n'));
  return hash.digest('hex').slice(0, 12);
}
