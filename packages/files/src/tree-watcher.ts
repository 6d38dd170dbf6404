import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import type { AsyncSubscription, Event, SubscribeCallback } from '@parcel/watcher';
import { FilesError } from './errors.js';
import { COOKIE_PREFIX } from './internal/excluded-names.js';
import { StaleNativeWatch, subscribeDir, unsubscribeDir } from './internal/native-subscriptions.js';
import { absoluteRoot } from './internal/paths.js';

/** Options of {@link TreeWatcher.start}. */
export interface TreeWatcherOptions {
  /**
   * How long {@link TreeWatcher.settle} waits for its own marker event before it gives up and
   * marks the watcher stale (the next scan walks). Default 2000 ms.
   */
  readonly settleTimeoutMs?: number;
  /**
   * More dirty paths than this since the last {@link TreeWatcher.take} make it stale: a burst
   * that large (an `npm install`, a checkout) is cheaper to walk, and is where the kernel's event
   * queue can overflow without a word (see the README). Default 10,000.
   */
  readonly maxDirty?: number;
  /**
   * Never write in the tree (the user's data): {@link TreeWatcher.settle} places no markers, so
   * it only waits for the watches of new directories and cannot tell that every change made
   * before it has been delivered (a take may miss the last moment's changes, which a later take
   * holds); every subtree is watched, `.git` and the runtime's names included. Default false.
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
   * True when events may have been lost (the watcher failed, a settle timed out, a burst passed
   * `maxDirty`, or nothing was taken yet): the caller must walk the tree instead.
   */
  readonly stale: boolean;
  /** Why the watcher is stale, for logs. */
  readonly reason?: string;
}

type Watcher = typeof import('@parcel/watcher');

/** A subscription and the directory it watches: the kernel's watch follows that inode. */
interface Watched {
  readonly subscription: AsyncSubscription;
  readonly dev: number;
  readonly ino: number;
}

// The subtrees never watched: git metadata, the runtime's own directories and the data source,
// which the resolver never lists either (excluded-names.ts). A RegExp because @parcel/watcher
// matches it natively, also while it crawls, against paths relative to the subscribed directory
// (so a root that itself lies below a `.git` is watched).
const UNWATCHED =
  /(^|\/)(\.git|\.hankweave|\.hankweavecheckpoints[^/]*|read_only_data_source)(\/|$)/;

/**
 * The file system's own change events for one directory tree (inotify on Linux, FSEvents on
 * macOS, through `@parcel/watcher`), collected as a set of dirty paths between two
 * {@link take}s. {@link settle} first makes sure every change made before it was called has been
 * delivered, by writing a marker file and waiting for its own event (the "cookie" of Watchman and
 * git's fsmonitor): a file system delivers one watcher's events in order.
 *
 * On Linux @parcel/watcher adds a watch to a new directory only after it sees the directory
 * appear, and never to the directories below a directory moved in: so each new directory gets a
 * subscription of its own (which watches its whole subtree) and is reported dirty, and the
 * caller's walk of it after {@link settle} covers whatever was written before the watch existed.
 */
export class TreeWatcher {
  readonly root: string;
  /** The root with its symlinks resolved: where every marker must land. */
  readonly #rootReal: string;
  readonly #watcher: Watcher;
  readonly #settleTimeoutMs: number;
  readonly #maxDirty: number;
  readonly #readOnly: boolean;
  #dirty = new Set<string>();
  /** Directories no subscription can be trusted with (see native-subscriptions.ts): every take lists them. */
  readonly #unwatchable = new Set<string>();
  #stale: string | undefined = 'no changes were taken yet';
  readonly #subscriptions = new Map<string, Watched>();
  readonly #pending = new Set<Promise<void>>();
  readonly #subscribing = new Set<string>();
  readonly #cookies = new Map<string, () => void>();
  #closed = false;

  private constructor(root: string, watcher: Watcher, options: TreeWatcherOptions) {
    this.root = root;
    this.#rootReal = realpathSync(root);
    this.#watcher = watcher;
    this.#settleTimeoutMs = options.settleTimeoutMs ?? 2000;
    this.#maxDirty = options.maxDirty ?? 10_000;
    this.#readOnly = options.readOnly ?? false;
  }

  /**
   * Starts watching `root` (crawling it once, natively). The first {@link take} is stale.
   *
   * @throws {FilesError} FILES_WATCH_UNAVAILABLE when the native watcher cannot be loaded or
   *   cannot watch the root (no inotify watches left: raise `fs.inotify.max_user_watches`).
   */
  static async start(root: string, options: TreeWatcherOptions = {}): Promise<TreeWatcher> {
    const rootAbs = absoluteRoot(root);
    let watcher: Watcher;
    try {
      watcher = await import('@parcel/watcher');
    } catch (error) {
      throw new FilesError(
        'FILES_WATCH_UNAVAILABLE',
        'The native file watcher (@parcel/watcher) could not be loaded on this platform; scans walk the tree instead',
        { cause: error, details: { root: rootAbs } },
      );
    }
    const tree = new TreeWatcher(rootAbs, watcher, options);
    await tree.#subscribe(rootAbs);
    return tree;
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Resolves once every change made before this call has been delivered (and every new
   * directory seen so far is watched). On a timeout the watcher turns stale instead of failing.
   * A `readOnly` watcher writes no markers: it only waits for the new directories' watches.
   */
  async settle(): Promise<void> {
    if (this.#closed) return;
    if (this.#readOnly) {
      while (this.#pending.size > 0) await Promise.all([...this.#pending]);
      return;
    }
    // One marker per subscription: each delivers its events on its own, in no order with the
    // others, so the root's marker alone says nothing of a new directory's watcher.
    const name = `${COOKIE_PREFIX}${randomUUID()}`;
    const placed: (() => void)[] = [];
    const arrivals: Promise<boolean>[] = [];
    for (const [dir, watched] of [...this.#subscriptions]) {
      // Forgotten while this loop ran (below a directory found replaced): nothing listens there.
      if (this.#subscriptions.get(dir) !== watched) continue;
      const cookie = `${dir}/${name}`;
      const arrived = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), this.#settleTimeoutMs);
        this.#cookies.set(cookie, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      try {
        const marker = placeMarker(this.#rootReal, dir, name, dir === this.root, watched);
        if (marker === 'replaced') {
          this.#cookies.get(cookie)?.();
          this.#cookies.delete(cookie);
          this.#onReplaced(dir);
          continue;
        }
        placed.push(marker);
      } catch (error) {
        this.#cookies.get(cookie)?.();
        this.#cookies.delete(cookie);
        // A new directory deleted or replaced again: its parent reports that, and its own
        // watcher has nothing left to say.
        if (dir !== this.root && !isRealDirectory(dir)) continue;
        this.#markStale(`the settle marker ${cookie} could not be written (${String(error)})`);
        continue;
      }
      arrivals.push(arrived);
    }
    const arrived = await Promise.all(arrivals);
    for (const cookie of this.#cookies.keys())
      if (cookie.endsWith(name)) this.#cookies.delete(cookie);
    for (const remove of placed) remove();
    if (arrived.includes(false)) {
      this.#markStale(`a settle marker had no event within ${this.#settleTimeoutMs} ms`);
    }
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Hands over the dirty paths (and staleness) since the last take, and starts a new set. */
  take(): WatchedChanges {
    const dirty = [...new Set([...this.#dirty, ...this.#unwatchable])];
    const reason = this.#stale;
    this.#dirty = new Set();
    this.#stale = this.#closed ? 'the watcher is closed' : undefined;
    return reason === undefined ? { dirty, stale: false } : { dirty, stale: true, reason };
  }

  /**
   * Stops watching. Later takes are stale. Settles first: an unsubscribe racing the events of a
   * deletion can leave @parcel/watcher's tree of a directory behind (native-subscriptions.ts).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    // A read-only watcher's settle places no markers: it waits only for pending watches.
    await this.settle();
    if (this.#closed) return;
    this.#closed = true;
    this.#stale = 'the watcher is closed';
    for (const resolve of this.#cookies.values()) resolve();
    await Promise.allSettled([...this.#pending]);
    const subscriptions = [...this.#subscriptions];
    this.#subscriptions.clear();
    await Promise.all(
      subscriptions.map(([dir, watched]) => unsubscribeDir(dir, watched.subscription)),
    );
  }

  #markStale(reason: string): void {
    this.#stale ??= reason;
  }

  /**
   * The directory at a subscribed path is no longer the one its watch follows (it was moved
   * away and another took its name, and the parent's events for that are not in yet): the
   * marker written there would never reach the old watch.
   */
  #onReplaced(dirAbs: string): void {
    if (dirAbs === this.root) {
      this.#markStale('the root was replaced by another directory');
      return;
    }
    const rel = relativeTo(this.root, dirAbs);
    if (rel !== undefined) this.#dirty.add(rel);
    this.#forget(dirAbs);
    if (isRealDirectory(dirAbs)) this.#watchNew(dirAbs);
  }

  async #subscribe(dirAbs: string): Promise<void> {
    try {
      // Taken before the watch is added: if the directory is replaced in between, the next
      // settle sees a mismatch and watches again, where the other order could miss it.
      // The root may be a link the caller chose; its watch follows the directory it leads to.
      const { dev, ino } = dirAbs === this.root ? statSync(dirAbs) : lstatSync(dirAbs);
      const onEvents: SubscribeCallback = (error, events) => this.#onEvents(dirAbs, error, events);
      const ignore = this.#readOnly ? [] : [UNWATCHED];
      const subscription = await subscribeDir(this.#watcher, dirAbs, onEvents, ignore);
      const replaced = this.#subscriptions.get(dirAbs);
      if (this.#closed) await unsubscribeDir(dirAbs, subscription);
      else this.#subscriptions.set(dirAbs, { subscription, dev, ino });
      this.#unwatchable.delete(relativeTo(this.root, dirAbs) ?? dirAbs);
      if (replaced) await unsubscribeDir(dirAbs, replaced.subscription);
    } catch (error) {
      if (dirAbs === this.root) {
        const next =
          error instanceof StaleNativeWatch
            ? 'scan without a watcher (a new process can watch it again)'
            : 'raise fs.inotify.max_user_watches, or scan without a watcher';
        throw new FilesError(
          'FILES_WATCH_UNAVAILABLE',
          `${dirAbs} could not be watched (${error instanceof Error ? error.message : String(error)}); ${next}`,
          {
            cause: error,
            details: { root: this.root, leftBehind: error instanceof StaleNativeWatch },
          },
        );
      }
      // A new directory gone again before its watch was added is dirty already. One still
      // there is listed dirty by every take from now on: the caller walks it each time.
      const rel = relativeTo(this.root, dirAbs);
      if (rel !== undefined && isRealDirectory(dirAbs)) this.#unwatchable.add(rel);
    }
  }

  #onEvents(dir: string, error: Error | null, events: Event[]): void {
    if (this.#closed) return;
    if (error) {
      this.#markStale(`the watcher failed (${error.message})`);
      return;
    }
    try {
      for (const event of events) this.#onEvent(dir, event);
    } catch (thrown) {
      // An exception thrown into @parcel/watcher's native caller ends the process.
      this.#markStale(`an event could not be handled (${String(thrown)})`);
    }
    if (this.#dirty.size > this.#maxDirty) {
      this.#markStale(`more than ${this.#maxDirty} paths changed at once`);
    }
  }

  #onEvent(dir: string, event: Event): void {
    const rel = relativeTo(this.root, event.path);
    if (rel === undefined) return;
    const slash = event.path.lastIndexOf('/');
    if (!this.#readOnly && event.path.startsWith(COOKIE_PREFIX, slash + 1)) {
      // Only the marker written for this subscription says its events are in.
      if (event.type === 'create' && event.path.slice(0, slash) === dir) {
        this.#cookies.get(event.path)?.();
      }
      return;
    }
    if (rel === '') {
      // The root itself was deleted or moved away: nothing below it is watched any more.
      if (event.type === 'delete') this.#markStale('the root was deleted or moved');
      return;
    }
    this.#dirty.add(rel);
    if (event.type === 'delete') this.#forget(event.path);
    else if (isRealDirectory(event.path)) {
      // A new directory, or one replaced within a batch (a delete and a create of one path
      // arrive as one update): whatever watched that path before watches nothing now.
      this.#forget(event.path);
      this.#watchNew(event.path);
    }
  }

  /** Watches a directory that appeared, with everything already below it. */
  #watchNew(dirAbs: string): void {
    if (this.#subscribing.has(dirAbs)) return;
    this.#subscribing.add(dirAbs);
    const pending = this.#subscribe(dirAbs).finally(() => {
      this.#pending.delete(pending);
      this.#subscribing.delete(dirAbs);
    });
    this.#pending.add(pending);
  }

  /**
   * Drops the subscriptions of a deleted or replaced directory and of those below it. A settle
   * waiting for their markers stops waiting: the path is dirty, so the caller walks all of it.
   */
  #forget(pathAbs: string): void {
    const below = `${pathAbs}/`;
    const rel = relativeTo(this.root, pathAbs);
    for (const each of this.#unwatchable) {
      if (rel !== undefined && (each === rel || each.startsWith(`${rel}/`))) {
        this.#unwatchable.delete(each);
      }
    }
    for (const [dir, watched] of this.#subscriptions) {
      if (dir !== this.root && (dir === pathAbs || dir.startsWith(below))) {
        this.#subscriptions.delete(dir);
        void unsubscribeDir(dir, watched.subscription);
        for (const [cookie, arrived] of this.#cookies) {
          if (cookie.lastIndexOf('/') === dir.length && cookie.startsWith(dir)) arrived();
        }
      }
    }
  }
}

function relativeTo(root: string, path: string): string | undefined {
  if (path === root) return '';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Writes an empty marker `name` in `dir` and returns its removal, or `'replaced'` (writing
 * nothing) when the directory there is not the one watched. Never through a link: the directory
 * (the root aside) is opened without following a final symlink, its real place checked to be
 * inside the root (an agent may have swapped a parent for a link), and the marker created through
 * that open directory (Linux's /proc/self/fd), exclusively, so an existing file, link or FIFO of
 * that name is never opened. Elsewhere only the exclusive create applies.
 */
function placeMarker(
  rootReal: string,
  dir: string,
  name: string,
  isRoot: boolean,
  watched: { readonly dev: number; readonly ino: number },
): (() => void) | 'replaced' {
  const isWatched = (stat: { dev: number; ino: number }) =>
    stat.dev === watched.dev && stat.ino === watched.ino;
  if (process.platform !== 'linux') {
    if (!isWatched(isRoot ? statSync(dir) : lstatSync(dir))) return 'replaced';
    writeFileSync(`${dir}/${name}`, '', { flag: 'wx' });
    return () => unlinkQuietly(`${dir}/${name}`);
  }
  // The root may itself be a link (the caller chose it); nothing below it may.
  const noFollow = isRoot ? 0 : constants.O_NOFOLLOW;
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | noFollow);
  const through = `/proc/self/fd/${fd}`;
  try {
    if (!isWatched(fstatSync(fd))) {
      closeSync(fd);
      return 'replaced';
    }
    const real = readlinkSync(through);
    if (real !== rootReal && !real.startsWith(`${rootReal}/`)) {
      throw new Error(`${dir} now leads outside the watched root, to ${real}`);
    }
    writeFileSync(`${through}/${name}`, '', { flag: 'wx' });
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return () => {
    unlinkQuietly(`${through}/${name}`);
    closeSync(fd);
  };
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (the directory was deleted or rolled back under us): nothing to clean up.
  }
}
