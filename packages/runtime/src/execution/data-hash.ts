import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readlinkSync, readSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { errnoCode } from '@hankweave/durable-io';
import { scanDeadline, walkDataTree } from './data-scan.js';

/**
 * The data hash version {@link hashDataSource} computes, recorded as `dataHashVersion` in
 * execution-meta.json. A file without the field was written with version 1
 * (`hashDataSourceWithMtimes`).
 */
export const DATA_HASH_VERSION = 2;

/** Files up to this size are hashed whole (while the scan's content budget lasts). */
export const DATA_HASH_FILE_CONTENT_LIMIT = 1024 * 1024;
/** How much content one scan reads whole, in total; a single data file is hashed whole up to it. */
export const DATA_HASH_TOTAL_CONTENT_LIMIT = 64 * 1024 * 1024;
/** A file hashed by sample contributes its size and this much of its start and of its end. */
export const DATA_HASH_SAMPLE_BYTES = 64 * 1024;

/** What one scan saw: the hash, and a signature per path (to name what changed). */
export interface DataScan {
  version: typeof DATA_HASH_VERSION;
  /** 12 hex characters. */
  hash: string;
  /** `[relative path, signature]` in scan order; a single-file data source has one entry. */
  entries: [string, string][];
  /** False when the scan stopped at its time limit or the per-directory bound. */
  complete: boolean;
}

/**
 * Data hash version 2, the one that keys resume: 12 hex characters of a sha256 over names, types,
 * sizes and content, never modification times, so `touch` or a copy that keeps the content
 * changes nothing. See {@link scanDataSource}.
 */
export function hashDataSource(dataPath: string, options: { timeLimitMs?: number } = {}): string {
  return scanDataSource(dataPath, options).hash;
}

/**
 * Scans the data (reference §2.4's bounded walk: depth 3, 100 entries per directory, dot names and
 * build folders skipped, `timeLimitMs`, default 5 s) and hashes what it sees. File content is read
 * whole up to 1 MiB per file and 64 MiB per scan; beyond that a file contributes its size and its
 * first and last 64 KiB, so hashing a large data directory stays cheap. A symlink contributes its
 * target (and, for a file target, that file's content).
 */
export function scanDataSource(dataPath: string, options: { timeLimitMs?: number } = {}): DataScan {
  const absolute = resolve(dataPath);
  const stats = statSync(absolute);
  const hash = createHash('sha256').update(`v${DATA_HASH_VERSION}\n`);
  if (stats.isFile()) {
    const signature = `f:${stats.size}:${contentDigest(absolute, stats.size, DATA_HASH_TOTAL_CONTENT_LIMIT)}`;
    hash.update(`file:${basename(absolute)}:${signature}`);
    return finish(hash, [[basename(absolute), signature]], true);
  }
  const deadline = scanDeadline(options.timeLimitMs);
  const entries: [string, string][] = [];
  const markers: string[] = [];
  let budget = DATA_HASH_TOTAL_CONTENT_LIMIT;
  let timedOut = false;
  const fileSignature = (path: string, size: number): string => {
    if (Date.now() > deadline) {
      timedOut = true;
      return `${size}:unread`;
    }
    const whole = size <= DATA_HASH_FILE_CONTENT_LIMIT && size <= budget;
    if (whole) budget -= size;
    return `${size}:${contentDigest(path, size, whole ? size : 0)}`;
  };
  walkDataTree(absolute, { deadline }, (item) => {
    if (item.kind === 'timeout') timedOut = true;
    else if (item.kind === 'truncated') {
      markers.push(`TRUNCATED:${item.relative}:${item.more}_more_items`);
    } else if (item.kind === 'error') entries.push([item.relative, `e:${item.code}`]);
    else if (item.stats.isDirectory()) entries.push([item.relative, 'd']);
    else if (item.stats.isFile()) {
      entries.push([item.relative, `f:${fileSignature(item.path, item.stats.size)}`]);
    } else if (item.stats.isSymbolicLink()) {
      entries.push([item.relative, `l:${linkSignature(item.path, fileSignature)}`]);
    } else entries.push([item.relative, 'o']);
  });
  if (timedOut) markers.push('TIMEOUT:scan_truncated');
  const records = entries.map(([relative, signature]) => `${relative}\0${signature}`);
  records.push(...markers);
  // A nearly empty directory would hash alike wherever it is; its path tells them apart.
  if (records.length < 5) records.push(`path:${absolute}`);
  hash.update(records.join('\n'));
  return finish(hash, entries, markers.length === 0);
}

function finish(hash: Hash, entries: [string, string][], complete: boolean): DataScan {
  return { version: DATA_HASH_VERSION, hash: hash.digest('hex').slice(0, 12), entries, complete };
}

/** A symlink's target, plus the content of the file it points to (not followed into directories). */
function linkSignature(path: string, fileSignature: (path: string, size: number) => string) {
  let target: string;
  try {
    target = readlinkSync(path);
  } catch (error) {
    return `?:${errnoCode(error) ?? 'error'}`;
  }
  try {
    const stats = statSync(path);
    return stats.isFile() ? `${target}:${fileSignature(path, stats.size)}` : target;
  } catch {
    return `${target}:dangling`;
  }
}

/**
 * sha256 (16 hex) of a file's whole content when `size <= wholeLimit`, else of its first and
 * last {@link DATA_HASH_SAMPLE_BYTES} (prefixed `s` so a sample never equals a whole digest).
 */
function contentDigest(path: string, size: number, wholeLimit: number): string {
  const digest = createHash('sha256');
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return `unreadable-${errnoCode(error) ?? 'error'}`;
  }
  try {
    const whole = size <= wholeLimit;
    const buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 1), DATA_HASH_SAMPLE_BYTES * 16));
    const feed = (start: number, end: number): void => {
      for (let position = start; position < end; ) {
        const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
        if (read === 0) break; // the file shrank while it was read: hash what was there
        digest.update(buffer.subarray(0, read));
        position += read;
      }
    };
    if (whole) feed(0, size);
    else {
      feed(0, Math.min(size, DATA_HASH_SAMPLE_BYTES));
      feed(Math.max(0, size - DATA_HASH_SAMPLE_BYTES), size);
    }
    return `${whole ? 'c' : 's'}${digest.digest('hex').slice(0, 16)}`;
  } catch (error) {
    return `unreadable-${errnoCode(error) ?? 'error'}`;
  } finally {
    closeSync(fd);
  }
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
