import { realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DATA_HASH_VERSION, type DataScan, scanDataSource } from './data-hash.js';
import { hashDataSourceWithMtimes } from './data-hash-v1.js';
import {
  dataHashVersionOf,
  type RecordedExecutionMeta,
  readExecutionMeta,
} from './execution-meta.js';

/** The data a run or an inspection command names, and how to compare it with recorded metas. */
export interface DataIdentity {
  /** The data's real path (what `readOnlySourceResolvedDataPath` records). */
  resolvedPath: string;
  /** The current (version 2) scan of the data. */
  scan: DataScan;
  /** True when `meta` recorded this data: its hash, in the hash version it was written with. */
  matches(meta: RecordedExecutionMeta): boolean;
}

/**
 * Scans the data once; the version-1 hash (mtimes) is computed only when a meta written with it
 * (no `dataHashVersion`: the original runtime, or ours before version 2) is compared.
 */
export function identifyData(
  dataPath: string,
  options: { timeLimitMs?: number } = {},
): DataIdentity {
  const absolute = resolve(dataPath);
  const scan = scanDataSource(absolute, options);
  let legacyHash: string | undefined;
  return {
    resolvedPath: realpathSync(absolute),
    scan,
    matches(meta) {
      const version = dataHashVersionOf(meta);
      if (version === DATA_HASH_VERSION) return meta.dataHash === scan.hash;
      if (version !== 1) return false; // written by a newer hankweave: cannot be compared
      legacyHash ??= hashDataSourceWithMtimes(absolute, options);
      return meta.dataHash === legacyHash;
    },
  };
}

/** An execution found for some data, and why it was picked. */
export interface ExecutionMatch {
  executionDir: string;
  meta: RecordedExecutionMeta;
  /**
   * `hash`: it was created for the same data (same hash). `path`: no execution has this data's
   * hash, and this is the newest one created for the same data path: the data changed since.
   */
  matchedBy: 'hash' | 'path';
}

/**
 * The managed execution for some data (names sort by creation time, newest first): the newest
 * with the same data hash, preferring one created for the same path; else the newest created for
 * the same data path (`matchedBy: 'path'`: its data has changed since); else undefined. This is how
 * a run resumes, and how inspection commands find an execution.
 */
export async function findNewestExecution(
  baseDir: string,
  data: string | DataIdentity,
  options: { timeLimitMs?: number } = {},
): Promise<ExecutionMatch | undefined> {
  let names: string[];
  try {
    names = await readdir(baseDir);
  } catch {
    return undefined;
  }
  const identity = typeof data === 'string' ? identifyData(data, options) : data;
  let byHash: ExecutionMatch | undefined;
  let byPath: ExecutionMatch | undefined;
  for (const name of names.sort().reverse()) {
    const executionDir = join(baseDir, name);
    const meta = await readExecutionMeta(join(executionDir, '.hankweave', 'execution-meta.json'))
      // A damaged execution is someone else's problem here: it is just not a candidate.
      .catch(() => undefined);
    if (!meta) continue;
    const samePath = meta.readOnlySourceResolvedDataPath === identity.resolvedPath;
    if (identity.matches(meta)) {
      if (samePath) return { executionDir, meta, matchedBy: 'hash' };
      byHash ??= { executionDir, meta, matchedBy: 'hash' };
    } else if (samePath) byPath ??= { executionDir, meta, matchedBy: 'path' };
  }
  return byHash ?? byPath;
}
