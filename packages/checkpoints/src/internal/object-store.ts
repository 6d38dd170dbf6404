import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { type FsFileHandle, isMissing } from '@hankweave/durable-io';
import { inflateAsync } from './compress.js';
import type { Io } from './io.js';
import { isomorphicGit } from './iso-git.js';
import { type Layout, loosePath } from './layout.js';
import { ObjectBatch } from './object-batch.js';
import { type ObjectType, parseTree, type TreeEntry } from './objects.js';
import { decodePackHeader, PackIndex } from './pack-index.js';
import { PackWriter } from './pack-writer.js';

/** ~50 bytes each: a few MB for the trees of several 10k-file checkpoints. */
const TREE_CACHE_ENTRIES = 200_000;

const TYPE_BY_NUMBER: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

/** A git object's type and inflated content. */
export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

/**
 * Reads and writes the repository's objects. Reading: loose objects and the undeltified pack
 * entries this engine writes are read directly (one positioned read + inflate); anything else
 * (deltas from a `git gc` run by hand) goes to isomorphic-git's `readObject`, which loads and
 * verifies a whole pack file into memory on first use, too costly for our own 100 MB packs.
 */
export class ObjectStore {
  private packs: PackIndex[] = [];
  private readonly handles = new Map<string, Promise<FsFileHandle>>();
  private readonly fds = new Map<string, number>();
  private readonly looseDirs = new Map<string, Set<string>>();
  /** Fan-out directories (`objects/xx`) known to exist: no mkdir per object. */
  readonly fanoutDirs = new Set<string>();
  private readonly isoCache = {};
  /** Parsed trees by id (trees never change). Bounded: cleared past TREE_CACHE_ENTRIES. */
  private readonly trees = new Map<string, TreeEntry[]>();
  private treeEntries = 0;

  constructor(
    private readonly io: Io,
    private readonly layout: Layout,
  ) {}

  /** (Re)reads the list of pack indexes, keeping the ones already parsed. */
  async loadPacks(): Promise<void> {
    const names = (await this.io.readdir(this.layout.packDir)).filter((name) =>
      name.endsWith('.idx'),
    );
    const known = new Map(this.packs.map((pack) => [pack.name, pack]));
    const packs: PackIndex[] = [];
    for (const idxName of names) {
      const packName = `${idxName.slice(0, -4)}.pack`;
      const existing = known.get(packName);
      if (existing) {
        packs.push(existing);
        continue;
      }
      const stat = await this.io.lstat(join(this.layout.packDir, packName));
      const data = await this.io.readOptional(join(this.layout.packDir, idxName));
      const index = stat && data ? PackIndex.parse(packName, data, Number(stat.size)) : undefined;
      if (index) packs.push(index);
    }
    this.packs = packs;
    // A pack a hand-run `git gc` deleted: drop its descriptor (reads went to the new pack).
    const live = new Set(packs.map((pack) => pack.name));
    for (const [name, fd] of this.fds) {
      if (!live.has(name)) {
        closeSync(fd);
        this.fds.delete(name);
      }
    }
    for (const [name, handle] of this.handles) {
      if (!live.has(name)) {
        this.handles.delete(name);
        void handle.then((opened) => opened.close()).catch(() => undefined);
      }
    }
  }

  /** Seeds the loose-object listing from the sweep `open` already did (all 256 fan-out dirs). */
  primeLoose(listing: Map<string, Set<string>>): void {
    for (const prefix of listing.keys()) this.fanoutDirs.add(prefix);
    for (let i = 0; i < 256; i++) {
      const prefix = i.toString(16).padStart(2, '0');
      this.looseDirs.set(prefix, listing.get(prefix) ?? new Set());
    }
  }

  /** The packs currently in use. */
  packList(): readonly PackIndex[] {
    return this.packs;
  }

  /** Forgets a pack that is about to be deleted (after merging) and closes its descriptor. */
  dropPack(name: string): void {
    this.packs = this.packs.filter((pack) => pack.name !== name);
    const fd = this.fds.get(name);
    if (fd !== undefined) closeSync(fd);
    this.fds.delete(name);
    const handle = this.handles.get(name);
    this.handles.delete(name);
    void handle?.then((opened) => opened.close()).catch(() => undefined);
  }

  /** Registers a pack this engine just wrote. */
  addPack(index: PackIndex): void {
    if (!this.packs.some((pack) => pack.name === index.name)) this.packs.push(index);
  }

  /** True when the object is stored, loose or packed. */
  async has(oid: string): Promise<boolean> {
    for (const pack of this.packs) if (pack.find(oid) >= 0) return true;
    return (await this.looseDir(oid.slice(0, 2))).has(oid.slice(2));
  }

  private async looseDir(prefix: string): Promise<Set<string>> {
    let names = this.looseDirs.get(prefix);
    if (!names) {
      names = new Set(await this.io.readdir(join(this.layout.objectsDir, prefix)));
      this.looseDirs.set(prefix, names);
    }
    return names;
  }

  /** Reads an object; undefined when it is not in the repository. */
  async read(oid: string): Promise<GitObject | undefined> {
    let found: GitObject | undefined;
    try {
      found = await this.readOnce(oid);
    } catch (error) {
      // A pack another engine's compaction (or a `git gc`) deleted before we first opened it.
      if (!isMissing(error)) throw error;
    }
    if (found) return found;
    // A `git gc`, or another engine on this repository, may have moved it into a new pack.
    await this.loadPacks();
    this.looseDirs.delete(oid.slice(0, 2));
    return this.readOnce(oid);
  }

  private async readOnce(oid: string): Promise<GitObject | undefined> {
    for (const pack of this.packs) {
      const position = pack.find(oid);
      if (position >= 0) return this.readPacked(pack, pack.offsetAt(position), oid);
    }
    let data: Buffer;
    try {
      data = await this.io.readFileQuick(loosePath(this.layout, oid));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const raw = await inflateAsync(data);
    const nul = raw.indexOf(0);
    const [type] = raw.toString('latin1', 0, nul).split(' ');
    return { type: type as ObjectType, content: raw.subarray(nul + 1) };
  }

  private async readPacked(
    pack: PackIndex,
    offset: number,
    oid: string,
  ): Promise<GitObject | undefined> {
    const end = pack.endOf(offset);
    const data = Buffer.allocUnsafe(end - offset);
    if (this.io.native) readSync(this.fd(pack.name), data, 0, data.length, offset);
    else await (await this.handle(pack.name)).read(data, 0, data.length, offset);
    const header = decodePackHeader(data);
    const type = TYPE_BY_NUMBER[header.type];
    if (type) return { type, content: await inflateAsync(data.subarray(header.length)) };
    try {
      const { readObject } = await isomorphicGit();
      const result = await readObject({
        fs: this.io.isoFs,
        gitdir: this.layout.gitDir,
        oid,
        format: 'content',
        cache: this.isoCache,
      });
      return { type: result.type as ObjectType, content: Buffer.from(result.object as Uint8Array) };
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return undefined;
      throw error;
    }
  }

  private fd(name: string): number {
    let fd = this.fds.get(name);
    if (fd === undefined) {
      fd = openSync(join(this.layout.packDir, name), 'r');
      this.fds.set(name, fd);
    }
    return fd;
  }

  private handle(name: string): Promise<FsFileHandle> {
    let handle = this.handles.get(name);
    if (!handle) {
      handle = this.io.fs.open(join(this.layout.packDir, name), 'r');
      this.handles.set(name, handle);
      handle.catch(() => this.handles.delete(name));
    }
    return handle;
  }

  /** Starts a write batch: one pack file when `pack`, else loose objects. */
  batch(pack: boolean): ObjectBatch {
    return new ObjectBatch(
      this,
      this.io,
      this.layout,
      pack ? new PackWriter(this.io, this.layout.packDir) : undefined,
    );
  }

  /** Notes a loose object written by a batch. */
  noteLoose(oid: string): void {
    this.looseDirs.get(oid.slice(0, 2))?.add(oid.slice(2));
  }

  /**
   * Remembers a parsed tree. The engine adds every tree it writes, so restoring or diffing
   * recent checkpoints reads no tree objects at all.
   */
  rememberTree(oid: string, entries: TreeEntry[]): void {
    if (this.trees.has(oid)) return;
    if (this.treeEntries + entries.length > TREE_CACHE_ENTRIES) {
      this.trees.clear();
      this.treeEntries = 0;
    }
    this.trees.set(oid, entries);
    this.treeEntries += entries.length;
  }

  /** A tree's entries, from memory or parsed from the repository; undefined when missing. */
  async readTree(oid: string): Promise<TreeEntry[] | undefined> {
    const cached = this.trees.get(oid);
    if (cached) return cached;
    const object = await this.read(oid);
    if (object?.type !== 'tree') return undefined;
    const entries = parseTree(object.content, oid);
    this.rememberTree(oid, entries);
    return entries;
  }

  /** Closes cached pack file handles. */
  async close(): Promise<void> {
    const handles = [...this.handles.values()];
    this.handles.clear();
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    await Promise.all(
      handles.map(async (handle) => (await handle.catch(() => undefined))?.close()),
    );
  }
}
