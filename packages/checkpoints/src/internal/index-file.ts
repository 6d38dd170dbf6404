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
  /** This entry's encoded bytes, kept so an unchanged entry is not encoded again. */
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
  /** True when the paths are in git's order (UTF-8 bytes, each after the one before). */
  sorted: boolean;
  /**
   * Where entry k's record starts in the file, the last element where the entries end; only
   * for a v2 file, whose records an {@link IndexWriter} can copy as they are (see `adopt`).
   */
  offsets?: Uint32Array;
}

const SIGNATURE = 0x44495243; // "DIRC"

/**
 * Serialises entries (sorted by UTF-8 bytes) and the cache tree as a git index v2 file. Entry
 * records are cached on the entries; records that lie next to each other in memory (those of an
 * index read from disk) are copied as one run.
 */
export function serializeIndex(
  entries: readonly IndexEntry[],
  dirs: ReadonlyMap<string, DirInfo>,
): Buffer {
  return new IndexWriter().write(entries, 0, dirs);
}

/**
 * A change to a sorted entry list: at index `at` of the previous list, drop `remove` entries
 * and put `entry` (if any) in their place. Splices are in ascending `at` and do not overlap.
 */
export interface Splice {
  at: number;
  remove: number;
  entry?: IndexEntry;
}

/**
 * Writes index files for one engine. It keeps the last file it made and where each entry's
 * record lies in it, so the next file, given the splices from the list it wrote, is built by
 * copying the unchanged runs of bytes: no per-entry work, which at 250k entries matters more
 * than the bytes (each entry object visited is a cache miss, ~1 µs under load here). The two
 * output buffers are reused because a fresh 20 MB buffer costs ~100 ms of page faults on this
 * VM. A returned buffer is valid until the next write but one.
 */
export class IndexWriter {
  private file: Buffer | undefined;
  private spare: Buffer | undefined;
  /** Where entry k's record starts in `file`; the last element is where the entries end. */
  private offsets: Uint32Array | undefined;
  private spareOffsets: Uint32Array | undefined;
  /** The version of the list `file` holds (the caller numbers its lists). */
  private version: number | undefined;

  /**
   * Takes `file`, an index just read and parsed (`offsets` from {@link parseIndex}), as the last
   * file this writer made of list number `version`: the next write then copies its unchanged
   * records instead of encoding all of them. A freshly opened engine's first restore or
   * checkpoint at 250k entries saves ~0.5 s of encoding and a buffer's page faults. The writer
   * owns `file` from now on (it becomes the spare buffer it writes into).
   */
  adopt(file: Buffer, offsets: Uint32Array, version: number): void {
    this.file = file;
    this.offsets = offsets;
    this.version = version;
  }

  /**
   * The index file of `entries`, the caller's list number `version`. With `edit`, the splices
   * that made it from list number `edit.from`: if that is the list of the last file, only the
   * splices are encoded.
   */
  write(
    entries: readonly IndexEntry[],
    version: number,
    dirs: ReadonlyMap<string, DirInfo>,
    edit?: { from: number; splices: readonly Splice[] },
  ): Buffer {
    const tree = serializeCacheTree(dirs);
    const file = this.file;
    const offsets = this.offsets;
    const last = this.version;
    this.version = undefined; // until this write is complete
    if (edit && file && offsets && last === edit.from) {
      return this.patch(entries, version, tree, file, offsets, edit.splices);
    }
    let size = 12;
    for (const entry of entries) {
      entry.record ??= encodeEntry(entry);
      size += entry.record.length;
    }
    const out = this.output(size + (tree ? 8 + tree.length : 0) + 20);
    const next = this.nextOffsets(entries.length + 1);
    let at = 12;
    for (let k = 0; k < entries.length; k++) {
      next[k] = at;
      at += ((entries[k] as IndexEntry).record as Buffer).length;
    }
    next[entries.length] = at;
    copyRecords(entries, out, 12);
    return this.finish(out, entries, version, next, tree);
  }

  private patch(
    entries: readonly IndexEntry[],
    version: number,
    tree: Buffer | undefined,
    file: Buffer,
    offsets: Uint32Array,
    splices: readonly Splice[],
  ): Buffer {
    const records = splices.map((splice) => {
      if (!splice.entry) return undefined;
      splice.entry.record = encodeEntry(splice.entry);
      return splice.entry.record;
    });
    let size = offsets[offsets.length - 1] as number;
    for (let s = 0; s < splices.length; s++) {
      const { at, remove } = splices[s] as Splice;
      size +=
        (records[s]?.length ?? 0) - ((offsets[at + remove] as number) - (offsets[at] as number));
    }
    const out = this.output(size + (tree ? 8 + tree.length : 0) + 20);
    const next = this.nextOffsets(entries.length + 1);
    let at = 12;
    let k = 0;
    let from = 0;
    // Unchanged records move as one block; their offsets shift by the same amount.
    const keep = (to: number): void => {
      const start = offsets[from] as number;
      const end = offsets[to] as number;
      file.copy(out, at, start, end);
      const delta = at - start;
      for (let i = from; i < to; i++) next[k++] = (offsets[i] as number) + delta;
      at += end - start;
    };
    for (let s = 0; s < splices.length; s++) {
      const splice = splices[s] as Splice;
      keep(splice.at);
      from = splice.at + splice.remove;
      const record = records[s];
      if (record) {
        next[k++] = at;
        at += record.copy(out, at);
      }
    }
    keep(offsets.length - 1);
    next[k] = at;
    if (k !== entries.length)
      throw new Error(`index splices give ${k} entries, not ${entries.length}`);
    return this.finish(out, entries, version, next, tree);
  }

  /** The spare offsets array (reused like the buffers), `length` long. */
  private nextOffsets(length: number): Uint32Array {
    const spare = this.spareOffsets;
    if (spare && spare.buffer.byteLength >= length * 4)
      return new Uint32Array(spare.buffer, 0, length);
    return new Uint32Array(new ArrayBuffer(4 * (length + (length >> 4))), 0, length);
  }

  private output(size: number): Buffer {
    let out = this.spare;
    if (!out || out.length < size) out = Buffer.allocUnsafeSlow(size + (size >> 4));
    return out;
  }

  private finish(
    out: Buffer,
    entries: readonly IndexEntry[],
    version: number,
    offsets: Uint32Array,
    tree: Buffer | undefined,
  ): Buffer {
    out.writeUInt32BE(SIGNATURE, 0);
    out.writeUInt32BE(2, 4);
    out.writeUInt32BE(entries.length, 8);
    let at = offsets[entries.length] as number;
    if (tree) {
      out.write('TREE', at, 'latin1');
      out.writeUInt32BE(tree.length, at + 4);
      at += 8 + tree.copy(out, at + 8);
    }
    createHash('sha1').update(out.subarray(0, at)).digest().copy(out, at);
    // Fault the second buffer's pages in now, with the first write, not in the next one.
    this.spare = this.file ?? Buffer.allocUnsafeSlow(out.length).fill(0);
    this.file = out;
    this.spareOffsets = this.offsets;
    this.offsets = offsets;
    this.version = version;
    return out.subarray(0, at + 20);
  }
}

/** Copies each run of records adjacent in memory (as read from one file) with one call. */
function copyRecords(entries: readonly IndexEntry[], out: Buffer, start: number): void {
  let at = start;
  let source: ArrayBufferLike | undefined;
  let from = 0;
  let to = 0;
  const flush = (): void => {
    if (source === undefined) return;
    out.set(new Uint8Array(source, from, to - from), at);
    at += to - from;
  };
  for (const entry of entries) {
    const record = entry.record as Buffer;
    if (record.buffer === source && record.byteOffset === to) {
      to += record.length;
      continue;
    }
    flush();
    source = record.buffer;
    from = record.byteOffset;
    to = from + record.length;
  }
  flush();
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

/**
 * Each directory's whole subtree in the cache-tree extension. A DirInfo is made for one
 * directory and never changed, and an unchanged directory keeps its DirInfo and those below it,
 * so its bytes can be kept: writing the extension visits only the directories that changed.
 */
const subtreeBytes = new WeakMap<DirInfo, Buffer>();

function serializeCacheTree(dirs: ReadonlyMap<string, DirInfo>): Buffer | undefined {
  const root = dirs.get('');
  if (!root) return undefined;
  const visit = (path: string, name: string, info: DirInfo): Buffer => {
    const known = subtreeBytes.get(info);
    if (known) return known;
    const parts: Buffer[] = [
      Buffer.from(`${name}\0${info.count} ${info.subdirs.length}\n`),
      Buffer.from(info.oid, 'hex'),
    ];
    for (const sub of info.subdirs) {
      const child = path === '' ? sub : `${path}/${sub}`;
      parts.push(visit(child, sub, dirs.get(child) as DirInfo));
    }
    const bytes = Buffer.concat(parts);
    subtreeBytes.set(info, bytes);
    return bytes;
  };
  return visit('', '', root);
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
  const offsets = new Uint32Array(count + 1);
  let sorted = true;
  let extendedSeen = false;
  let previousStart = 0;
  let previousEnd = 0;
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + 62 > end) return undefined;
    offsets[i] = at;
    const flags = data.readUInt16BE(at + 60);
    if ((flags & 0x3000) !== 0) return undefined; // merge conflict stages: not ours
    const extended = (flags & 0x4000) !== 0;
    extendedSeen ||= extended;
    const nameStart = at + 62 + (extended ? 2 : 0);
    const nameEnd = data.indexOf(0, nameStart);
    if (nameEnd < 0 || nameEnd > end) return undefined;
    if (i > 0 && sorted) sorted = bytesBefore(data, previousStart, previousEnd, nameStart, nameEnd);
    previousStart = nameStart;
    previousEnd = nameEnd;
    // No per-entry Buffer is kept: at 250k entries, 250k small views cost more to make and to
    // collect than the whole parse (the writer copies records from `offsets` instead).
    entries[i] = {
      path: data.toString('utf8', nameStart, nameEnd),
      mode: data.readUInt32BE(at + 24),
      oid: data.toString('hex', at + 40, at + 60),
      ctimeS: data.readUInt32BE(at),
      ctimeN: data.readUInt32BE(at + 4),
      mtimeS: data.readUInt32BE(at + 8),
      mtimeN: data.readUInt32BE(at + 12),
      dev: data.readUInt32BE(at + 16),
      ino: data.readUInt32BE(at + 20),
      uid: data.readUInt32BE(at + 28),
      gid: data.readUInt32BE(at + 32),
      size: data.readUInt32BE(at + 36),
    };
    at += (nameEnd - at + 8) & ~7;
  }
  offsets[count] = at;
  let dirs = new Map<string, DirInfo>();
  while (at + 8 <= end) {
    const signature = data.toString('latin1', at, at + 4);
    const length = data.readUInt32BE(at + 4);
    if (signature === 'TREE') dirs = parseCacheTree(data.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  // Extended (v3) records are re-encoded as v2 when written back, so not copied.
  return version === 2 && !extendedSeen
    ? { entries, dirs, sorted, offsets }
    : { entries, dirs, sorted };
}

/** True when bytes [a, aEnd) of `data` sort strictly before bytes [b, bEnd). */
function bytesBefore(data: Buffer, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = Math.min(aEnd - a, bEnd - b);
  for (let i = 0; i < length; i++) {
    const x = data[a + i] as number;
    const y = data[b + i] as number;
    if (x !== y) return x < y;
  }
  return aEnd - a < bEnd - b;
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
