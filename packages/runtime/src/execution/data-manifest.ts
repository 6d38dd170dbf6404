import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from '@hankweave/durable-io';
import { toJsonFile } from '../internal/json-file.js';
import type { DataScan } from './data-hash.js';

/** Larger scans are not kept: the manifest only serves to name a few changed files. */
const MANIFEST_MAX_ENTRIES = 2000;

/** One difference between the data an execution recorded and the data now. */
export interface DataChange {
  name: string;
  change: 'changed' | 'added' | 'removed';
}

interface DataManifest {
  version: number;
  hash: string;
  entries: Record<string, string>;
}

/**
 * Keeps what the data scan saw beside execution-meta.json (`.hankweave/data-manifest.json`), so a
 * later run on changed data can say which names changed. A hint, not state: written without
 * fsync, and removed when the scan was too large or incomplete to compare.
 */
export async function writeDataManifest(path: string, scan: DataScan): Promise<void> {
  if (!scan.complete || scan.entries.length > MANIFEST_MAX_ENTRIES) {
    await rm(path, { force: true });
    return;
  }
  const manifest: DataManifest = {
    version: scan.version,
    hash: scan.hash,
    entries: Object.fromEntries(scan.entries),
  };
  await writeFileAtomic(path, toJsonFile(manifest), { fsync: false });
}

/**
 * The names that differ between the manifest recorded for `recordedHash` and `scan`, at most
 * `limit`, or undefined when that cannot be told cheaply (no manifest, another hash version, a
 * manifest of other data, an incomplete scan).
 */
export async function changedDataNames(
  path: string,
  recordedHash: string,
  scan: DataScan,
  limit = 5,
): Promise<DataChange[] | undefined> {
  const manifest = await readManifest(path);
  if (!manifest || manifest.hash !== recordedHash || manifest.version !== scan.version) {
    return undefined;
  }
  if (!scan.complete) return undefined;
  const changes: DataChange[] = [];
  const now = new Map(scan.entries);
  for (const [name, signature] of scan.entries) {
    const before = manifest.entries[name];
    if (before === undefined) changes.push({ name, change: 'added' });
    else if (before !== signature) changes.push({ name, change: 'changed' });
  }
  for (const name of Object.keys(manifest.entries)) {
    if (!now.has(name)) changes.push({ name, change: 'removed' });
  }
  // A directory added or removed names its whole content: its children need no lines of their own.
  const whole = changes
    .filter((change) => change.change !== 'changed')
    .map(({ name }) => `${name}/`);
  return changes
    .filter((change) => !whole.some((prefix) => change.name.startsWith(prefix)))
    .slice(0, limit);
}

async function readManifest(path: string): Promise<DataManifest | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<DataManifest>;
    if (
      typeof parsed.version === 'number' &&
      typeof parsed.hash === 'string' &&
      parsed.entries !== null &&
      typeof parsed.entries === 'object'
    ) {
      return parsed as DataManifest;
    }
  } catch {
    // Missing or unreadable: the caller says the data changed without naming files.
  }
  return undefined;
}
