import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import type { FsFileHandle } from '@hankweave/durable-io';
import type { IndexEntry } from './index-file.js';
import type { Io, Stat } from './io.js';
import { MODE_EXEC, MODE_FILE, MODE_LINK } from './objects.js';

const NS = 1_000_000_000n;

/**
 * A tracked file of the current tree plus what we know about it on disk. `verify` is the
 * racy-git rule: an entry whose mtime is not older than the moment its stat was taken cannot
 * be trusted by stat alone (the file may change again within the same timestamp tick), so it is
 * re-hashed next time. Entries restored from a tree without a stat are `verify` too. Times stay
 * as the index's seconds and nanoseconds (numbers): a bigint per time, kept for 250k entries,
 * cost a freshly opened engine more in garbage collection than its whole index parse.
 */
export interface CacheEntry extends IndexEntry {
  verify: boolean;
}

/** The git mode for what lstat saw, or undefined for directories, sockets and the like. */
export function gitModeOf(stat: Stat): number | undefined {
  if (stat.isFile()) return (stat.mode & 0o100n) !== 0n ? MODE_EXEC : MODE_FILE;
  if (stat.isSymbolicLink()) return MODE_LINK;
  return undefined;
}

/** True when `stat` still describes the file the entry was hashed from. */
export function statMatches(entry: CacheEntry, stat: Stat, mode: number): boolean {
  return (
    !entry.verify &&
    entry.mode === mode &&
    entry.size === Number(stat.size) >>> 0 &&
    entry.ino === Number(stat.ino) >>> 0 &&
    stat.mtimeNs === BigInt(entry.mtimeS) * NS + BigInt(entry.mtimeN) &&
    stat.ctimeNs === BigInt(entry.ctimeS) * NS + BigInt(entry.ctimeN)
  );
}

/** A cache entry for a file just hashed; `clock` is the fs time sampled before its lstat. */
export function entryFromStat(
  path: string,
  stat: Stat,
  mode: number,
  oid: string,
  clock: bigint,
): CacheEntry {
  return {
    path,
    mode,
    oid,
    ctimeS: Number(stat.ctimeNs / NS),
    ctimeN: Number(stat.ctimeNs % NS),
    mtimeS: Number(stat.mtimeNs / NS),
    mtimeN: Number(stat.mtimeNs % NS),
    dev: Number(BigInt.asUintN(32, stat.dev)),
    ino: Number(stat.ino) >>> 0,
    uid: Number(stat.uid) >>> 0,
    gid: Number(stat.gid) >>> 0,
    size: Number(stat.size) >>> 0,
    verify: stat.mtimeNs >= clock,
  };
}

/** A cache entry known only from a tree: it must be hashed before it can be trusted. */
export function entryFromTree(path: string, mode: number, oid: string): CacheEntry {
  return {
    path,
    mode,
    oid,
    ctimeS: 0,
    ctimeN: 0,
    mtimeS: 0,
    mtimeN: 0,
    dev: 0,
    ino: 0,
    uid: 0,
    gid: 0,
    size: 0,
    verify: true,
  };
}

/**
 * Turns the entries of an index read from disk into cache entries, in place (the parsed objects
 * are the engine's own; a copy per entry is 250k more objects to collect). `indexTime` is the
 * index file's mtime: an entry modified at or after it is racy.
 */
export function entriesFromIndex(entries: IndexEntry[], indexTime: bigint): CacheEntry[] {
  const seconds = Number(indexTime / NS);
  const nanos = Number(indexTime % NS);
  for (const entry of entries) asCacheEntry(entry, seconds, nanos);
  return entries as CacheEntry[];
}

function asCacheEntry(entry: IndexEntry, seconds: number, nanos: number): CacheEntry {
  const cached = entry as CacheEntry;
  cached.verify =
    entry.mtimeS === 0 ||
    entry.mtimeS > seconds ||
    (entry.mtimeS === seconds && entry.mtimeN >= nanos);
  return cached;
}

/**
 * The file system's own clock. Kernel file times come from a coarse clock that can lag the wall
 * clock by a tick, so the racy rule must compare against a time taken from the same source:
 * rewrite one byte of a private file and read back its mtime.
 */
export class FsClock {
  private handle: FsFileHandle | undefined;
  private fd: number | undefined;
  private readonly byte = Buffer.from('0');

  constructor(
    private readonly io: Io,
    private readonly path: string,
  ) {}

  async now(): Promise<bigint> {
    if (this.io.native) {
      this.fd ??= openSync(this.path, 'w');
      writeSync(this.fd, this.byte, 0, 1, 0);
      return fstatSync(this.fd, { bigint: true }).mtimeNs;
    }
    this.handle ??= await this.io.fs.open(this.path, 'w');
    await this.handle.write(this.byte, 0, 1, 0);
    return (await this.handle.stat({ bigint: true })).mtimeNs;
  }

  async close(): Promise<void> {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
