import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Io } from './io.js';
import { encodePackHeader, PackIndex } from './pack-index.js';

interface PendingEntry {
  oid: string;
  header: Buffer;
  data: Buffer;
  /** Known CRC-32 of header + data (entries copied from another pack). */
  crc?: number;
}

/** Packs below this size are assembled in memory and written with one call. */
const SMALL_PACK = 4 * 1024 * 1024;

/** A pack file and its index, as written to `objects/pack`. */
export interface WrittenPack {
  index: PackIndex;
}

/**
 * Collects compressed objects and writes them as one undeltified pack (v2) plus its `.idx` (v2).
 * The pack's object count sits in its header and its SHA-1 trailer covers that header, so the
 * entries are buffered (compressed) until the count is known; past `flushBytes` a pack is
 * written early and a new one begun, which bounds memory on huge first checkpoints.
 *
 * Crash safety: the pack is written to `tmp_pack_*`, fsynced and renamed to `pack-{sha}.pack`;
 * only then is the `.idx` written the same way. Git and the engine look objects up through
 * `.idx` files, so a crash leaves either nothing visible or a complete pack; a stray `.pack`
 * without its `.idx` is deleted by the next `open`.
 */
export class PackWriter {
  private pending: PendingEntry[] = [];
  private pendingBytes = 0;
  private flushing: Promise<void> = Promise.resolve();
  readonly written: WrittenPack[] = [];

  constructor(
    private readonly io: Io,
    private readonly packDir: string,
    private readonly flushBytes = 64 * 1024 * 1024,
  ) {}

  /** Adds an object whose content is already deflated (without the loose-object header). */
  add(oid: string, type: number, size: number, deflated: Buffer, crc?: number): Promise<void> {
    const header = crc === undefined ? encodePackHeader(type, size) : Buffer.alloc(0);
    this.pending.push({ oid, header, data: deflated, crc });
    this.pendingBytes += deflated.length;
    if (this.pendingBytes < this.flushBytes) return Promise.resolve();
    const batch = this.take();
    this.flushing = this.flushing.then(() => this.writePack(batch));
    return this.flushing;
  }

  /** Adds an entry copied verbatim from another undeltified pack (header and data). */
  addRaw(oid: string, raw: Buffer, crc: number): Promise<void> {
    return this.add(oid, 0, 0, raw, crc);
  }

  /** Writes whatever is buffered and waits for every pack to be in place. */
  async finish(): Promise<void> {
    const batch = this.take();
    if (batch.length > 0) this.flushing = this.flushing.then(() => this.writePack(batch));
    await this.flushing;
  }

  private take(): PendingEntry[] {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return batch;
  }

  private async writePack(entries: PendingEntry[]): Promise<void> {
    const suffix = randomBytes(6).toString('hex');
    const tempPack = join(this.packDir, `tmp_pack_${suffix}`);
    const hash = createHash('sha1');
    const head = Buffer.alloc(12);
    head.write('PACK', 0, 'latin1');
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(entries.length, 8);
    hash.update(head);
    const offsets = new Array<number>(entries.length);
    const crcs = new Array<number>(entries.length);
    const chunks: Buffer[] = [head];
    let offset = 12;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as PendingEntry;
      offsets[i] = offset;
      crcs[i] = entry.crc ?? crc32(entry.data, crc32(entry.header));
      hash.update(entry.header).update(entry.data);
      chunks.push(entry.header, entry.data);
      offset += entry.header.length + entry.data.length;
    }
    const trailer = hash.digest();
    chunks.push(trailer);
    const name = `pack-${trailer.toString('hex')}`;
    const packPath = join(this.packDir, `${name}.pack`);
    if (offset < SMALL_PACK) {
      // The usual case (one checkpoint's objects): one write, one fsync.
      await this.io.writeAtomic(packPath, Buffer.concat(chunks));
    } else {
      const handle = await this.io.fs.open(tempPack, 'wx', 0o444);
      try {
        // writev in slices: one syscall per ~1k buffers instead of one per object.
        for (let i = 0; i < chunks.length; i += 1024)
          await handle.writev(chunks.slice(i, i + 1024));
        if (this.io.durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await this.io.fs.rename(tempPack, packPath);
    }
    const idx = buildIndex(
      entries.map((entry, i) => ({
        oid: entry.oid,
        offset: offsets[i] as number,
        crc: crcs[i] as number,
      })),
      trailer,
    );
    await this.io.writeAtomic(join(this.packDir, `${name}.idx`), idx);
    await this.io.syncDirectory(this.packDir);
    const index = PackIndex.parse(`${name}.pack`, idx, offset + 20);
    if (index) this.written.push({ index });
  }
}

/** Builds a v2 `.idx` for the given entries of a pack whose trailer is `packSum`. */
export function buildIndex(
  items: { oid: string; offset: number; crc: number }[],
  packSum: Buffer,
): Buffer {
  const sorted = [...items].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const count = sorted.length;
  const large = sorted.filter((item) => item.offset >= 0x80000000);
  const out = Buffer.alloc(8 + 1024 + count * 28 + large.length * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const item of sorted) (fanout[Number.parseInt(item.oid.slice(0, 2), 16)] as number)++;
  let total = 0;
  for (let i = 0; i < 256; i++) {
    total += fanout[i] as number;
    out.writeUInt32BE(total, 8 + i * 4);
  }
  const oidsAt = 8 + 1024;
  const crcAt = oidsAt + count * 20;
  const offsetAt = crcAt + count * 4;
  const largeAt = offsetAt + count * 4;
  let largeIndex = 0;
  sorted.forEach((item, i) => {
    out.write(item.oid, oidsAt + i * 20, 'hex');
    out.writeUInt32BE(item.crc >>> 0, crcAt + i * 4);
    if (item.offset < 0x80000000) out.writeUInt32BE(item.offset, offsetAt + i * 4);
    else {
      out.writeUInt32BE((0x80000000 | largeIndex) >>> 0, offsetAt + i * 4);
      out.writeUInt32BE(Math.floor(item.offset / 2 ** 32), largeAt + largeIndex * 8);
      out.writeUInt32BE(item.offset >>> 0, largeAt + largeIndex * 8 + 4);
      largeIndex++;
    }
  });
  const end = largeAt + large.length * 8;
  packSum.copy(out, end);
  createHash('sha1')
    .update(out.subarray(0, end + 20))
    .digest()
    .copy(out, end + 20);
  return out;
}
