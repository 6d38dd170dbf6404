import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fsyncDescriptor } from '@hankweave/durable-io';
import { deflateAsync } from './compress.js';
import type { Io } from './io.js';
import { type Layout, loosePath } from './layout.js';
import type { ObjectType } from './objects.js';
import { PACK_TYPES, type PackIndex } from './pack-index.js';
import type { PackWriter } from './pack-writer.js';

/**
 * What a batch needs of the object store it writes for (the store implements it): whether an
 * object exists, the fan-out directories made so far, and notes of what the batch wrote.
 */
export interface BatchTarget {
  has(oid: string): Promise<boolean>;
  readonly fanoutDirs: Set<string>;
  noteLoose(oid: string): void;
  addPack(index: PackIndex): void;
}

/**
 * The objects of one checkpoint. Objects are written once: ids already stored or already in this
 * batch are skipped. Loose objects are durable when `add` resolves; packed ones at `finish`.
 */
export class ObjectBatch {
  private readonly pending = new Set<string>();
  written = 0;

  constructor(
    private readonly store: BatchTarget,
    private readonly io: Io,
    private readonly layout: Layout,
    private readonly pack: PackWriter | undefined,
  ) {}

  /** True when this batch writes a pack. */
  get packed(): boolean {
    return this.pack !== undefined;
  }

  /** Writes the object unless it is already stored. */
  async add(oid: string, type: ObjectType, content: Uint8Array): Promise<void> {
    if (this.pending.has(oid)) return;
    this.pending.add(oid);
    if (await this.store.has(oid)) return;
    this.written++;
    if (this.pack) {
      await this.pack.add(oid, PACK_TYPES[type], content.length, await deflateAsync(content));
      return;
    }
    const header = Buffer.from(`${type} ${content.length}\0`);
    const deflated = await deflateAsync(Buffer.concat([header, content]));
    const prefix = oid.slice(0, 2);
    const dir = join(this.layout.objectsDir, prefix);
    if (!this.store.fanoutDirs.has(prefix)) {
      await this.io.mkdirp(dir);
      this.store.fanoutDirs.add(prefix);
    }
    // `tmp_obj_` is the prefix git itself uses, which `git fsck` ignores if a crash leaves one.
    const temp = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
    if (this.io.native) {
      // open/write/close/rename are cheap syscalls done inline; only the fsync waits on the
      // thread pool, so the fsyncs of a batch's objects overlap.
      const fd = openSync(temp, 'wx', 0o444);
      try {
        writeSync(fd, deflated);
        if (this.io.durable) await fsyncDescriptor(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, loosePath(this.layout, oid));
      this.store.noteLoose(oid);
      return;
    }
    const handle = await this.io.fs.open(temp, 'wx', 0o444);
    try {
      await handle.writeFile(deflated);
      if (this.io.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await this.io.fs.rename(temp, loosePath(this.layout, oid));
    this.store.noteLoose(oid);
  }

  /** Makes every object of the batch visible and durable. */
  async finish(): Promise<void> {
    if (!this.pack) return;
    await this.pack.finish();
    for (const written of this.pack.written) this.store.addPack(written.index);
  }
}
