import { randomUUID } from 'node:crypto';
import { type FSWatcher, lstatSync, realpathSync, statSync, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { FilesError } from './errors.js';
import { COOKIE_PREFIX } from './internal/excluded-names.js';
import { absoluteRoot } from './internal/paths.js';
import { placeRootMarker } from './internal/root-marker.js';
import { watchQueue } from './internal/watch-queue.js';

/** Options of {@link TreeWatcher.start}. */
export interface TreeWatcherOptions {
  /**
   * How long {@link TreeWatcher.settle} waits for its own marker event before it gives up and
   * marks the watcher stale (the next scan walks). Default 2000 ms.
   */
  readonly settleTimeoutMs?: number;
  /**
   * More dirty paths than this since the last {@link TreeWatcher.take} make it stale: a burst
   * that large (an `npm install`, a checkout) is cheaper to walk. (A possible overflow of the
   * kernel's event queue makes it stale too: see the README.) Default 10,000.
   */
  readonly maxDirty?: number;
  /**
   * Never write in the tree (the user's data): {@link TreeWatcher.settle} places no marker and
   * relies on inotify queueing an event in the system call that makes the change (see settle);
   * every subtree is watched, `.git` and the runtime's names included. Default false.
   */
  readonly readOnly?: boolean;
}

/** What {@link TreeWatcher.take} hands over. */
export interface WatchedChanges {
  /**
   * Paths (relative to the root) that were created, written, deleted or renamed since the last
   * take, in no order. A directory stands for everything below it.
   */
  readonly dirty: readonly string[];
  /**
   * True when events may have been lost (a watch failed, a settle timed out, a burst passed
   * `maxDirty` or may have overflowed the kernel's queue, the root was replaced, or nothing was
   * taken yet): the caller must walk instead.
   */
  readonly stale: boolean;
  /** Why the watcher is stale, for logs. */
  readonly reason?: string;
}

/** One watched directory: its watch follows the inode it was added on. */
interface Watched {
  readonly handle: FSWatcher;
  readonly dev: number;
  readonly ino: number;
  /** Names of its subdirectories that are watched too (for forgetting a subtree). */
  readonly children: Set<string>;
}

// Entry names never watched nor reported (unless read-only): git metadata, the runtime's own
// directories and the data source, which the resolver never lists either (excluded-names.ts).
const UNWATCHED = /^(\.git|\.hankweave|\.hankweavecheckpoints.*|read_only_data_source)$/;

/**
 * The file system's own change events for one directory tree, collected as a set of dirty paths
 * between two {@link take}s. Linux only: one inotify watch per directory, through Node's
 * `fs.watch` (libuv), which hands over every kernel event, in the kernel's order, one by one.
 *
 * Why not a library that batches (`@parcel/watcher`, used before): a batch merges a path's
 * events, and a file renamed over an existing one and then removed within one batch merged to
 * nothing, so its deletion was never reported (a checkpoint then kept the file). Raw events
 * cannot be merged wrongly, and all of one process's watches share one inotify queue, so they
 * also arrive in the order the changes were made: one marker at the root settles every watch.
 *
 * A new directory is watched in the event handler that reports it (at once), then the directories
 * already inside it (a crawl) are; it is reported dirty, so the caller's walk of it after
 * {@link settle} covers whatever was written before its watches existed.
 */
export class TreeWatcher {
  readonly root: string;
  /** The root with its symlinks resolved: where the marker must land. */
  readonly #rootReal: string;
  readonly #rootId: { readonly dev: number; readonly ino: number };
  readonly #settleTimeoutMs: number;
  readonly #maxDirty: number;
  readonly #readOnly: boolean;
  #dirty = new Set<string>();
  /** Directories no watch could be added to (no inotify watches left): every take lists them. */
  readonly #unwatchable = new Set<string>();
  #stale: string | undefined = 'no changes were taken yet';
  /** Watched directories by path relative to the root ('' for the root). */
  readonly #watches = new Map<string, Watched>();
  readonly #pending = new Set<Promise<void>>();
  readonly #cookies = new Map<string, () => void>();
  /** Told by the process's inotify queue when so many events came at once that some may be lost. */
  readonly #queueListener = {
    overflowed: (events: number) =>
      this.#markStale(
        `${events} file events came at once: the kernel's event queue may have overflowed`,
      ),
  };
  #closed = false;

  private constructor(root: string, options: TreeWatcherOptions) {
    this.root = root;
    this.#rootReal = realpathSync(root);
    const { dev, ino } = statSync(root);
    this.#rootId = { dev, ino };
    this.#settleTimeoutMs = options.settleTimeoutMs ?? 2000;
    this.#maxDirty = options.maxDirty ?? 10_000;
    this.#readOnly = options.readOnly ?? false;
  }

  /**
   * Starts watching `root`: a watch on every directory below it, added by a crawl. The first
   * {@link take} is stale.
   *
   * @throws {FilesError} FILES_WATCH_UNAVAILABLE off Linux, or when the root cannot be watched
   *   (no inotify watches left: raise `fs.inotify.max_user_watches`).
   */
  static async start(root: string, options: TreeWatcherOptions = {}): Promise<TreeWatcher> {
    const rootAbs = absoluteRoot(root);
    if (process.platform !== 'linux') {
      throw new FilesError(
        'FILES_WATCH_UNAVAILABLE',
        `Watching file events needs Linux inotify, not ${process.platform}; scans walk the tree instead`,
        { details: { root: rootAbs } },
      );
    }
    let tree: TreeWatcher;
    try {
      tree = new TreeWatcher(rootAbs, options);
      tree.#add('');
      watchQueue.open(tree.#queueListener);
    } catch (error) {
      const noWatchesLeft = (error as NodeJS.ErrnoException).code === 'ENOSPC';
      throw new FilesError(
        'FILES_WATCH_UNAVAILABLE',
        `${rootAbs} could not be watched (${error instanceof Error ? error.message : String(error)}); ${noWatchesLeft ? 'raise fs.inotify.max_user_watches, or ' : ''}scan without a watcher`,
        { cause: error, details: { root: rootAbs } },
      );
    }
    await tree.#crawl('');
    return tree;
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Resolves once every change made before this call has been handled (and every new directory
   * seen so far is watched). inotify queues an event in the very system call that makes a change,
   * and libuv reads the queue until it is empty: two turns of the event loop (the second follows
   * a poll that began after this call) read them all. A watcher that may write then places a
   * marker at the root and waits for its event, which comes after all of them; a `readOnly` one
   * stops after the two turns. On the marker's timeout the watcher turns stale.
   */
  async settle(): Promise<void> {
    if (this.#closed) return;
    await this.#crawled();
    if (!this.#sameRoot()) this.#markStale('the root was deleted or replaced');
    else {
      // Read what is queued first: a marker written into a full queue would be dropped.
      await twoTurns();
      if (!this.#readOnly) await this.#roundTrip();
    }
    await this.#crawled();
  }

  /** Hands over the dirty paths (and staleness) since the last take, and starts a new set. */
  take(): WatchedChanges {
    const dirty = [...new Set([...this.#dirty, ...this.#unwatchable])];
    const reason = this.#stale;
    this.#dirty = new Set();
    this.#stale = this.#closed ? 'the watcher is closed' : undefined;
    return reason === undefined ? { dirty, stale: false } : { dirty, stale: true, reason };
  }

  /** Stops watching, and resolves once the kernel's watches are removed. Later takes are stale. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    watchQueue.close(this.#queueListener);
    this.#stale = 'the watcher is closed';
    for (const resolve of this.#cookies.values()) resolve();
    for (const watched of this.#watches.values()) watched.handle.close();
    this.#watches.clear();
    await Promise.allSettled([...this.#pending]);
    // Called from an event's handler (a settle resolves there), libuv removes the kernel's watch
    // only once it has finished with that event: after a turn, every watch is gone.
    await new Promise((resolve) => setImmediate(resolve));
  }

  async #crawled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #roundTrip(): Promise<void> {
    const name = `${COOKIE_PREFIX}${randomUUID()}`;
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.#settleTimeoutMs);
      this.#cookies.set(name, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    // Resolving clears the timer: a process is never held open by a marker that was not placed.
    const drop = () => {
      this.#cookies.get(name)?.();
      this.#cookies.delete(name);
    };
    let placed: (() => void) | 'replaced';
    try {
      placed = placeRootMarker(this.root, this.#rootReal, this.#rootId, name);
    } catch (error) {
      drop();
      this.#markStale(`the settle marker ${name} could not be written (${String(error)})`);
      return;
    }
    if (placed === 'replaced') {
      drop();
      this.#markStale('the root was replaced by another directory');
      return;
    }
    const inTime = await arrived;
    this.#cookies.delete(name);
    placed();
    if (!inTime) this.#markStale(`a settle marker had no event within ${this.#settleTimeoutMs} ms`);
  }

  #markStale(reason: string): void {
    this.#stale ??= reason;
  }

  #sameRoot(): boolean {
    try {
      const { dev, ino } = statSync(this.root);
      return dev === this.#rootId.dev && ino === this.#rootId.ino;
    } catch {
      return false;
    }
  }

  #abs(rel: string): string {
    return rel === '' ? this.root : `${this.root}/${rel}`;
  }

  /**
   * Adds the watch of the directory `rel` (the root may be a link the caller chose; nothing below
   * it is followed). Returns false when nothing is watched there: not a directory (any more), or
   * no watch could be added, which makes it unwatchable (walked by every take).
   *
   * @throws when the root cannot be watched.
   */
  #add(rel: string): boolean {
    const abs = this.#abs(rel);
    // Taken before the watch is added: if the directory is replaced in between, the parent's
    // event for that compares inodes and watches again, where the other order could miss it.
    let id: { dev: number; ino: number; isDirectory(): boolean };
    try {
      id = rel === '' ? statSync(abs) : lstatSync(abs);
    } catch (error) {
      if (rel === '') throw error;
      return false;
    }
    if (!id.isDirectory()) return false;
    let watched: Watched;
    try {
      // Watched as `<dir>/.`: libuv names the directory's own deletion or move (and the watch's
      // end) by the base name of the watched path, which `.` tells from every entry's name.
      const handle = watch(`${abs}/.`, { persistent: false }, (type, name) =>
        this.#onEvent(rel, watched, type, name),
      );
      watched = { handle, dev: id.dev, ino: id.ino, children: new Set() };
    } catch (error) {
      if (rel === '') throw error;
      if (isRealDirectory(abs)) this.#unwatchable.add(rel);
      return false;
    }
    watched.handle.on('error', (error) => {
      this.#markStale(`the watch of ${abs} failed (${error.message})`);
    });
    this.#watches.set(rel, watched);
    if (rel !== '') this.#watches.get(parentOf(rel))?.children.add(nameOf(rel));
    return true;
  }

  /** Watches the directories below `rel` (watched already), as far as they exist now. */
  async #crawl(rel: string): Promise<void> {
    const stack = [rel];
    for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
      const watched = this.#watches.get(dir);
      if (this.#closed || !watched) continue;
      let names: string[];
      try {
        const entries = await readdir(this.#abs(dir), { withFileTypes: true });
        names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      } catch {
        continue; // Gone or replaced meanwhile: its parent's events say so.
      }
      // Forgotten while it was read: whatever it listed is not below the root any more.
      if (this.#watches.get(dir) !== watched) continue;
      for (const name of names) {
        if (!this.#readOnly && UNWATCHED.test(name)) continue;
        const child = dir === '' ? name : `${dir}/${name}`;
        if (!this.#watches.has(child) && this.#add(child)) stack.push(child);
      }
    }
  }

  #onEvent(dirRel: string, watched: Watched, type: string, name: string | null): void {
    watchQueue.delivered();
    if (this.#closed || this.#watches.get(dirRel) !== watched) return;
    try {
      if (name === null || name === '.') {
        // The directory itself was deleted or moved away (or, without a name, anything may have
        // changed in it): its watch now follows an inode elsewhere, or nothing.
        if (dirRel === '') {
          this.#markStale('the root was deleted, moved or changed its mode');
          // A marker placed in a root made again would reach no watch: stop waiting for it.
          for (const arrived of this.#cookies.values()) arrived();
        } else if (type === 'change')
          this.#dirty.add(dirRel); // its mode or times: walk it again
        else {
          this.#dirty.add(dirRel);
          this.#forget(dirRel);
          this.#recheck(dirRel);
        }
        return;
      }
      if (!this.#readOnly) {
        if (name.startsWith(COOKIE_PREFIX)) {
          // Markers are only ever placed at the root; one elsewhere is a name no scan lists.
          if (dirRel === '') this.#cookies.get(name)?.();
          return;
        }
        if (UNWATCHED.test(name)) return;
      }
      const rel = dirRel === '' ? name : `${dirRel}/${name}`;
      this.#dirty.add(rel);
      if (type === 'rename') this.#recheck(rel);
    } catch (thrown) {
      this.#markStale(`an event could not be handled (${String(thrown)})`);
    }
    if (this.#dirty.size > this.#maxDirty) {
      this.#markStale(`more than ${this.#maxDirty} paths changed at once`);
    }
  }

  /**
   * An entry was created, deleted or renamed at `rel`: whatever watched that path before watches
   * something else now, unless the same directory is still there. A directory found there is
   * watched at once, and the ones inside it by a crawl.
   */
  #recheck(rel: string): void {
    const abs = this.#abs(rel);
    let now: { dev: number; ino: number; isDirectory(): boolean } | undefined;
    try {
      now = lstatSync(abs);
    } catch {
      now = undefined;
    }
    const watched = this.#watches.get(rel);
    if (watched && now?.isDirectory() && watched.dev === now.dev && watched.ino === now.ino) return;
    this.#forget(rel);
    if (!now?.isDirectory()) return;
    if (!this.#readOnly && UNWATCHED.test(nameOf(rel))) return;
    if (!this.#add(rel)) return;
    const crawl = this.#crawl(rel).finally(() => this.#pending.delete(crawl));
    this.#pending.add(crawl);
  }

  /** Closes the watches at and below `rel` (a deleted or replaced directory). */
  #forget(rel: string): void {
    for (const each of this.#unwatchable) {
      if (each === rel || each.startsWith(`${rel}/`)) this.#unwatchable.delete(each);
    }
    const top = this.#watches.get(rel);
    if (!top) return;
    this.#watches.get(parentOf(rel))?.children.delete(nameOf(rel));
    const stack: [string, Watched][] = [[rel, top]];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const [dir, watched] = next;
      this.#watches.delete(dir);
      watched.handle.close();
      for (const name of watched.children) {
        const child = `${dir}/${name}`;
        const below = this.#watches.get(child);
        if (below) stack.push([child, below]);
      }
    }
  }
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash === -1 ? '' : rel.slice(0, slash);
}

function nameOf(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Two turns of the event loop: the second begins after a poll that began after the call. */
async function twoTurns(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}
