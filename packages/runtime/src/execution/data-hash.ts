import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';

const MAX_DEPTH = 3;
const MAX_ENTRIES_PER_DIR = 100;
const SKIPPED = new Set(['node_modules', '__pycache__', 'dist', 'build']);

/**
 * The data hash that keys resume (reference §2.4): 12 hex characters of a sha256 over metadata.
 * A file is hashed by name, size, mtime and content; a directory by a bounded scan (depth 3, at
 * most 100 entries per directory, stopping at `timeLimitMs`) of names, sizes and mtimes only, so
 * hashing a large data directory stays cheap.
 */
export function hashDataSource(dataPath: string, options: { timeLimitMs?: number } = {}): string {
  const absolute = resolve(dataPath);
  const stats = statSync(absolute);
  const hash = createHash('sha256');
  if (stats.isFile()) {
    hash.update(`file:${basename(absolute)}:${stats.size}:${Math.floor(stats.mtimeMs)}`);
    hash.update(readFileSync(absolute));
    return hash.digest('hex').slice(0, 12);
  }
  const deadline = Date.now() + (options.timeLimitMs ?? 5000);
  const records: string[] = [];
  const walk = (dir: string, relative: string, depth: number): void => {
    if (Date.now() > deadline) {
      records.push('TIMEOUT:scan_truncated');
      return;
    }
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      records.push(`e:${relative}:${errnoCode(error) ?? 'error'}`);
      return;
    }
    const kept = names.filter((name) => !name.startsWith('.') && !SKIPPED.has(name));
    for (const name of kept.slice(0, MAX_ENTRIES_PER_DIR)) {
      const childRelative = relative === '' ? name : `${relative}/${name}`;
      try {
        const child = lstatSync(join(dir, name));
        const mtime = Math.floor(child.mtimeMs / 1000);
        if (child.isDirectory()) {
          records.push(`d:${childRelative}:${mtime}`);
          if (depth < MAX_DEPTH) walk(join(dir, name), childRelative, depth + 1);
        } else {
          records.push(`f:${childRelative}:${child.size}:${mtime}`);
        }
      } catch (error) {
        records.push(`e:${childRelative}:${errnoCode(error) ?? 'error'}`);
      }
    }
    if (kept.length > MAX_ENTRIES_PER_DIR) {
      records.push(`TRUNCATED:${relative}:${kept.length - MAX_ENTRIES_PER_DIR}_more_items`);
    }
  };
  walk(absolute, '', 1);
  // A nearly empty directory would hash alike wherever it is; its path tells them apart.
  if (records.length < 5) records.push(`path:${absolute}`);
  hash.update(records.join('\n'));
  return hash.digest('hex').slice(0, 12);
}

/** A stable hash of hank.json's content: canonical JSON, so reformatting changes nothing. */
export function hashHank(config: unknown): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, child]) => child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
