import { join } from 'node:path';
import type { Io } from './io.js';
import type { Layout } from './layout.js';
import type { ObjectStore } from './object-store.js';
import { decodePackHeader, type PackIndex } from './pack-index.js';
import { PackWriter } from './pack-writer.js';

/** When to merge: more than `maxSmallPacks` packs below `smallPackBytes`. */
export interface CompactionLimits {
  maxSmallPacks: number;
  smallPackBytes: number;
  /** At most this many bytes of packs are merged (and held in memory) at once. */
  maxMergeBytes: number;
}

export const DEFAULT_COMPACTION: CompactionLimits = {
  maxSmallPacks: 32,
  smallPackBytes: 16 * 1024 * 1024,
  maxMergeBytes: 64 * 1024 * 1024,
};

/**
 * Merges the smallest packs into one. Each checkpoint writes its objects as one small pack
 * (three fsyncs instead of one per loose object); without merging, the pack count would grow
 * with every checkpoint and every lookup would search them all. Entries are copied verbatim with
 * their CRCs (our packs hold no deltas; a pack that does, from a hand-run `git gc`, is left
 * alone). The new pack and index are durable before any old file is removed, index first, so a
 * crash leaves at worst the same objects twice, which git accepts. Returns true when it merged.
 */
export async function compactPacks(
  io: Io,
  layout: Layout,
  store: ObjectStore,
  limits: CompactionLimits = DEFAULT_COMPACTION,
): Promise<boolean> {
  const small = store
    .packList()
    .filter((pack) => pack.packSize < limits.smallPackBytes)
    .sort((a, b) => a.packSize - b.packSize);
  if (small.length <= limits.maxSmallPacks) return false;
  const chosen: PackIndex[] = [];
  let bytes = 0;
  for (const pack of small) {
    if (chosen.length >= 2 && bytes + pack.packSize > limits.maxMergeBytes) break;
    chosen.push(pack);
    bytes += pack.packSize;
  }
  const writer = new PackWriter(io, layout.packDir, Number.POSITIVE_INFINITY);
  const seen = new Set<string>();
  const merged: PackIndex[] = [];
  for (const pack of chosen) {
    const data = await io.readOptional(join(layout.packDir, pack.name));
    const entries = data ? rawEntries(pack, data) : undefined;
    if (!entries) continue;
    for (const entry of entries) {
      if (seen.has(entry.oid)) continue;
      seen.add(entry.oid);
      await writer.addRaw(entry.oid, entry.raw, entry.crc);
    }
    merged.push(pack);
  }
  if (merged.length < 2) return false;
  await writer.finish();
  for (const written of writer.written) store.addPack(written.index);
  for (const pack of merged) {
    store.dropPack(pack.name);
    await io.unlinkOptional(join(layout.packDir, `${pack.name.slice(0, -5)}.idx`));
    await io.unlinkOptional(join(layout.packDir, pack.name));
  }
  await io.syncDirectory(layout.packDir);
  return true;
}

/** Every entry of an undeltified pack as raw bytes; undefined if it holds a delta. */
function rawEntries(
  pack: PackIndex,
  data: Buffer,
): { oid: string; raw: Buffer; crc: number }[] | undefined {
  const entries: { oid: string; raw: Buffer; crc: number }[] = [];
  for (let i = 0; i < pack.count; i++) {
    const offset = pack.offsetAt(i);
    const raw = data.subarray(offset, pack.endOf(offset));
    const { type } = decodePackHeader(raw);
    if (type < 1 || type > 4) return undefined;
    entries.push({ oid: pack.oidAt(i), raw, crc: pack.crcAt(i) });
  }
  return entries;
}
