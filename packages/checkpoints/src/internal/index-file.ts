import { createHash } from 'node:crypto';

/**
 * One tracked file as git's index (v2) stores it: the stat data that lets both this engine and
 * native `git status` skip unchanged files, the mode and the blob id. Times and sizes are the
 * low 32 bits, exactly as git keeps them, so both compare the same way.
 */
export interface IndexEntry {
  path: string;
  mode: number;
  oid: string;
  ctimeS: number;
  ctimeN: number;
  mtimeS: number;
  mtimeN: number;
  dev: number;
  ino: number;
  uid: number;
  gid: number;
  size: number;
  /** This entry's bytes in the index file, kept so an unchanged entry is not re-encoded. */
  record?: Buffer;
}

/** A directory of the last written tree: git's cache-tree ("TREE" extension) node. */
export interface DirInfo {
  oid: string;
  /** Files below it, recursively. */
  count: number;
  /** Names of its subdirectories, in tree order. */
  subdirs: string[];
}

/** What a parsed index holds; `dirs` is keyed by directory path ('' = root). */
export interface IndexData {
  entries: IndexEntry[];
  dirs: Map<string, DirInfo>;
}

const SIGNATURE = 0x44495243; // "DIRC"

/**
 * Serialises entries (sorted by UTF-8 bytes) and the cache tree as a git index v2 file. Entry
 * records are cached on the entries: rewriting the index of 10k files after a 30-file change
 * re-encodes 30 records and copies the rest.
 */
export function serializeIndex(
  entries: readonly IndexEntry[],
  dirs: ReadonlyMap<string, DirInfo>,
): Buffer {
  let size = 12;
  for (const entry of entries) {
    entry.record ??= encodeEntry(entry);
    size += entry.record.length;
  }
  const tree = serializeCacheTree(dirs);
  if (tree) size += 8 + tree.length;
  // One allocation for the whole file (10k entries: ~1 MB), hashed in place.
  const out = Buffer.allocUnsafe(size + 20);
  out.writeUInt32BE(SIGNATURE, 0);
  out.writeUInt32BE(2, 4);
  out.writeUInt32BE(entries.length, 8);
  let at = 12;
  for (const entry of entries) at += (entry.record as Buffer).copy(out, at);
  if (tree) {
    out.write('TREE', at, 'latin1');
    out.writeUInt32BE(tree.length, at + 4);
    at += 8 + tree.copy(out, at + 8);
  }
  createHash('sha1').update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}

/** One v2 entry: 62 bytes of stat data, id and flags, the path, 1-8 NULs of padding. */
function encodeEntry(e: IndexEntry): Buffer {
  const name = Buffer.from(e.path);
  const out = Buffer.alloc((62 + name.length + 8) & ~7);
  out.writeUInt32BE(e.ctimeS >>> 0, 0);
  out.writeUInt32BE(e.ctimeN >>> 0, 4);
  out.writeUInt32BE(e.mtimeS >>> 0, 8);
  out.writeUInt32BE(e.mtimeN >>> 0, 12);
  out.writeUInt32BE(e.dev >>> 0, 16);
  out.writeUInt32BE(e.ino >>> 0, 20);
  out.writeUInt32BE(e.mode, 24);
  out.writeUInt32BE(e.uid >>> 0, 28);
  out.writeUInt32BE(e.gid >>> 0, 32);
  out.writeUInt32BE(e.size >>> 0, 36);
  out.write(e.oid, 40, 'hex');
  out.writeUInt16BE(Math.min(name.length, 0xfff), 60);
  name.copy(out, 62);
  return out;
}

function serializeCacheTree(dirs: ReadonlyMap<string, DirInfo>): Buffer | undefined {
  if (!dirs.has('')) return undefined;
  const parts: Buffer[] = [];
  const visit = (path: string, name: string): void => {
    const info = dirs.get(path) as DirInfo;
    parts.push(
      Buffer.from(`${name}\0${info.count} ${info.subdirs.length}\n`),
      Buffer.from(info.oid, 'hex'),
    );
    for (const sub of info.subdirs) visit(path === '' ? sub : `${path}/${sub}`, sub);
  };
  visit('', '');
  return Buffer.concat(parts);
}

/**
 * Parses a git index (v2 or v3; v4's prefix compression is not read) and its cache tree. Returns
 * undefined when the file is not one we can trust: bad checksum, conflict stages, v4. The index
 * is only a cache, so the caller then rebuilds it by hashing.
 */
export function parseIndex(data: Buffer): IndexData | undefined {
  if (data.length < 32 || data.readUInt32BE(0) !== SIGNATURE) return undefined;
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const end = data.length - 20;
  const sum = createHash('sha1').update(data.subarray(0, end)).digest();
  if (!sum.equals(data.subarray(end))) return undefined;
  const count = data.readUInt32BE(8);
  const entries: IndexEntry[] = new Array(count);
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + 62 > end) return undefined;
    const flags = data.readUInt16BE(at + 60);
    if ((flags & 0x3000) !== 0) return undefined; // merge conflict stages: not ours
    const extended = (flags & 0x4000) !== 0;
    const nameStart = at + 62 + (extended ? 2 : 0);
    const nameEnd = data.indexOf(0, nameStart);
    if (nameEnd < 0 || nameEnd > end) return undefined;
    entries[i] = {
      ctimeS: data.readUInt32BE(at),
      ctimeN: data.readUInt32BE(at + 4),
      mtimeS: data.readUInt32BE(at + 8),
      mtimeN: data.readUInt32BE(at + 12),
      dev: data.readUInt32BE(at + 16),
      ino: data.readUInt32BE(at + 20),
      mode: data.readUInt32BE(at + 24),
      uid: data.readUInt32BE(at + 28),
      gid: data.readUInt32BE(at + 32),
      size: data.readUInt32BE(at + 36),
      oid: data.toString('hex', at + 40, at + 60),
      path: data.toString('utf8', nameStart, nameEnd),
      // v3 extended entries are re-encoded as v2 when written back.
      record: extended ? undefined : data.subarray(at, at + ((nameEnd - at + 8) & ~7)),
    };
    at += (nameEnd - at + 8) & ~7;
  }
  let dirs = new Map<string, DirInfo>();
  while (at + 8 <= end) {
    const signature = data.toString('latin1', at, at + 4);
    const length = data.readUInt32BE(at + 4);
    if (signature === 'TREE') dirs = parseCacheTree(data.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  return { entries, dirs };
}

function parseCacheTree(data: Buffer): Map<string, DirInfo> {
  const dirs = new Map<string, DirInfo>();
  let at = 0;
  const readNode = (parent: string | undefined): string | undefined => {
    const nul = data.indexOf(0, at);
    const newline = data.indexOf(0x0a, nul);
    if (nul < 0 || newline < 0) throw new Error('truncated cache tree');
    const name = data.toString('utf8', at, nul);
    const [countText, subText] = data.toString('latin1', nul + 1, newline).split(' ');
    const count = Number(countText);
    const subtrees = Number(subText);
    at = newline + 1;
    const path = parent === undefined ? '' : parent === '' ? name : `${parent}/${name}`;
    let oid: string | undefined;
    if (count >= 0) {
      oid = data.toString('hex', at, at + 20);
      at += 20;
    }
    const subdirs: string[] = [];
    let complete = oid !== undefined;
    for (let i = 0; i < subtrees; i++) {
      const child = readNode(path);
      if (child === undefined) complete = false;
      else subdirs.push(child.slice(child.lastIndexOf('/') + 1));
    }
    // An invalidated node (count -1) says nothing about its directory; leave it out so the
    // directory is rebuilt. Its valid children stay usable.
    if (!complete || oid === undefined) return undefined;
    dirs.set(path, { oid, count, subdirs: subdirs.sort(compareTreeNames) });
    return path;
  };
  try {
    readNode(undefined);
  } catch {
    return new Map();
  }
  return dirs;
}

/** git's order for subdirectory names within one tree: compare as "name/". */
function compareTreeNames(a: string, b: string): number {
  const x = `${a}/`;
  const y = `${b}/`;
  return x < y ? -1 : x > y ? 1 : 0;
}
