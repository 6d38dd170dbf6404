import type { BigIntStats } from 'node:fs';
import { FilesError, type FilesWarning } from './errors.js';
import { ListingCache } from './internal/listing-cache.js';
import { LiveTree } from './internal/live-tree.js';
import { absoluteRoot } from './internal/paths.js';
import { applyDirty, dirtyRoots, LiveSnapshot } from './internal/watched-scan.js';
import { diff, type FileChanges, type FileSnapshot, scanFiles } from './snapshot.js';
import type { TreeWatcher, WatchedChanges } from './tree-watcher.js';
import {
  resolverInternals,
  type TreeListing,
  UnifiedFileResolver,
} from './unified-file-resolver.js';

/** Options of {@link ChangeScanner}. */
export interface ChangeScannerOptions {
  /** The resolver to use (and whose caches to share); default a new one. */
  readonly resolver?: UnifiedFileResolver;
  /** The snapshot the first scan compares with; default empty (every file is `created`). */
  readonly baseline?: FileSnapshot;
  /**
   * A watcher on the same root. {@link ChangeScanner.scanWatched} then looks again only at what
   * its events name, and walks when it cannot trust them. The caller closes it.
   */
  readonly watcher?: TreeWatcher;
}

/** What {@link ChangeScanner.scan} returns. */
export interface ScanResult {
  /**
   * Every tracked file after the scan. With a watcher this is the scanner's own map, updated in
   * place by later scans, and files found by events come after the others: copy it to keep it,
   * sort its keys (`comparePaths`) when order matters.
   */
  readonly snapshot: FileSnapshot;
  readonly changes: FileChanges;
  readonly warnings: FilesWarning[];
  /** How the scan found the changes: a `walk` of the tree, or the watcher's `events`. */
  readonly by: 'walk' | 'events';
  /** Why a scan with a watcher walked (the watcher was stale, the patterns changed...). */
  readonly walkReason?: string;
  /**
   * With a watcher: ms spent making sure the events of every change made before the scan were
   * handled (the settle marker's round trip, and the crawls of new directories).
   */
  readonly settleMs?: number;
}

/** What {@link ChangeScanner.listTree} returns. */
export interface ListedTree {
  readonly listing: TreeListing;
  /** How the listing was made: a `walk` of the tree, or the kept listing and the watcher's `events`. */
  readonly by: 'walk' | 'events';
  /** Why a listing with a watcher walked. */
  readonly walkReason?: string;
}

/** More dirty paths than this since the last listing make it walk: as cheap by then. */
const MAX_UNLISTED = 10_000;

/** Dirty paths taken from the watcher that one consumer (the snapshot, the tree) has not used yet. */
class Unused {
  dirty = new Set<string>();
  /** Why the consumer must walk instead, if it must. */
  stale: string | undefined;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  add(taken: WatchedChanges): void {
    if (taken.stale) this.stale ??= taken.reason ?? 'the watcher may have lost events';
    if (this.stale !== undefined) return;
    for (const path of taken.dirty) this.dirty.add(path);
    if (this.dirty.size > this.#max) {
      this.stale = `more than ${this.#max} paths changed since the last listing`;
      this.dirty.clear();
    }
  }

  use(): { dirty: string[]; stale: string | undefined } {
    const used = { dirty: [...this.dirty], stale: this.stale };
    this.dirty = new Set();
    this.stale = undefined;
    return used;
  }
}

/**
 * Incremental change detection for one root, meant to run after every tool call that may have
 * touched files. Each walk lstats every directory it walks and reads again only those whose
 * stat changed (a new or deleted entry changes the directory's mtime), then lstats the matching
 * files and compares them with the previous scan. With a {@link TreeWatcher},
 * {@link scanWatched} skips the walk and looks only at the paths the file system reported.
 */
export class ChangeScanner {
  private readonly resolver: UnifiedFileResolver;
  private readonly listings: ListingCache;
  private readonly rootAbs: string;
  private watcher: TreeWatcher | undefined;
  private last: FileSnapshot;
  /** The snapshot as the watcher keeps it, valid for {@link livePatterns} only. */
  private live: LiveSnapshot | undefined;
  private livePatterns: string | undefined;
  private excludeSignature: string | undefined;
  // What the watcher reported that the snapshot and the kept listing have yet to look at. The
  // snapshot's are bounded by the watcher's `maxDirty`; the tree's collect over many scans.
  private readonly unusedBySnapshot = new Unused(Number.POSITIVE_INFINITY);
  private readonly unusedByTree = new Unused(MAX_UNLISTED);
  /** The whole tree's listing as of the last {@link listTree}, with a watcher only. */
  private tree: LiveTree | undefined;
  private treeExcludeSignature: string | undefined;

  constructor(root: string, options: ChangeScannerOptions = {}) {
    this.rootAbs = absoluteRoot(root);
    this.resolver = options.resolver ?? new UnifiedFileResolver();
    this.listings = new ListingCache(resolverInternals(this.resolver).racyWindowNs);
    this.last = options.baseline ?? new Map();
    if (options.watcher) this.attachWatcher(options.watcher);
  }

  /**
   * Feeds later {@link scanWatched} calls from `watcher` (started after the scanner, e.g. once
   * the tree turned out big); the next one walks, as a baseline for the events.
   *
   * @throws {FilesError} FILES_INVALID_OPTION when the watcher watches another root.
   */
  attachWatcher(watcher: TreeWatcher): void {
    if (watcher.root !== this.rootAbs) {
      throw new FilesError(
        'FILES_INVALID_OPTION',
        `The watcher watches ${watcher.root}, not the scanner's root ${this.rootAbs}`,
        { details: { root: this.rootAbs, watched: watcher.root } },
      );
    }
    this.watcher = watcher;
    this.live = undefined;
    this.tree = undefined;
  }

  /** The snapshot of the last scan (or the baseline). */
  get current(): FileSnapshot {
    return this.last;
  }

  /**
   * Walks `patterns` and reports what changed since the previous scan. A file that starts or
   * stops matching because the patterns changed is reported as created or deleted. With a
   * watcher, this also drops its dirty set: the walk has seen everything up to now.
   *
   * @throws {FilesError} as {@link UnifiedFileResolver.resolve} does.
   */
  scan(patterns: readonly string[]): ScanResult {
    return this.walk(patterns, undefined);
  }

  /**
   * Like {@link scan}, but with a watcher: waits until the file system has delivered every
   * event of a change made before this call, then looks again only at the paths those events
   * name. It walks instead when the watcher may have lost events (see {@link TreeWatcher.take}),
   * when the patterns or `.git/info/exclude` changed, or on the first scan. Without a watcher it
   * is {@link scan}.
   *
   * @throws {FilesError} as {@link UnifiedFileResolver.resolve} does.
   */
  async scanWatched(patterns: readonly string[]): Promise<ScanResult> {
    const watcher = this.watcher;
    if (!watcher) return this.scan(patterns);
    const settleStart = performance.now();
    await watcher.settle();
    const settleMs = performance.now() - settleStart;
    this.takeFrom(watcher);
    const taken = this.unusedBySnapshot.use();
    const key = patterns.join('\0');
    const exclude = this.readExcludeSignature();
    let reason = taken.stale;
    if (!this.live) reason ??= 'the first scan walks';
    else if (key !== this.livePatterns) reason ??= 'the tracked patterns changed';
    else if (exclude !== this.excludeSignature) reason ??= '.git/info/exclude changed';
    const roots = dirtyRoots(taken.dirty);
    if (!roots) reason ??= 'the root .gitignore changed';
    if (reason !== undefined || !this.live || !roots) {
      return { ...this.walk(patterns, reason), settleMs };
    }
    const warnings: FilesWarning[] = [];
    const changes = applyDirty(this.resolver, this.rootAbs, patterns, this.live, roots, warnings);
    return { snapshot: this.live.files, changes, warnings, by: 'events', settleMs };
  }

  /**
   * Sets the snapshot the next scan compares with (e.g. after a rollback restored files) and
   * forgets cached directory listings. With a watcher, the next {@link scanWatched} walks.
   */
  reset(baseline: FileSnapshot = new Map()): void {
    this.last = baseline;
    this.listings.clear();
    this.live = undefined;
    this.tree = undefined;
  }

  /**
   * Everything under the root that {@link UnifiedFileResolver.listTree} lists (files of every
   * kind, directories, the ignore files applied), now. Without a watcher that is a walk. With
   * one, the scanner keeps the listing of the last call and, after a {@link TreeWatcher.settle},
   * lists again only the subtrees the file system's events name: on a big tree a few ms instead
   * of a walk. It walks on the first call, after a {@link reset}, and where {@link scanWatched}
   * would (the watcher may have lost events, the root `.gitignore` or `.git/info/exclude`
   * changed). Listing does not use up the events a later {@link scanWatched} needs.
   *
   * @throws {FilesError} as {@link UnifiedFileResolver.listTree} does.
   */
  async listTree(): Promise<ListedTree> {
    const watcher = this.watcher;
    if (!watcher) return { listing: this.resolver.listTree(this.rootAbs), by: 'walk' };
    await watcher.settle();
    this.takeFrom(watcher);
    const taken = this.unusedByTree.use();
    const exclude = this.readExcludeSignature();
    let reason = taken.stale;
    if (!this.tree) reason ??= 'the first listing walks';
    else if (exclude !== this.treeExcludeSignature) reason ??= '.git/info/exclude changed';
    const roots = dirtyRoots(taken.dirty);
    if (!roots) reason ??= 'the root .gitignore changed';
    if (reason !== undefined || !this.tree || !roots) {
      const listing = this.resolver.listTree(this.rootAbs);
      this.tree = new LiveTree(listing);
      this.treeExcludeSignature = exclude;
      return { listing, by: 'walk', walkReason: reason };
    }
    const below = resolverInternals(this.resolver).listBelow(this.rootAbs, roots);
    this.tree.replace(roots, below);
    return { listing: { ...this.tree.toListing(), warnings: below.warnings }, by: 'events' };
  }

  /** Takes the watcher's events, for the snapshot and for the kept listing alike. */
  private takeFrom(watcher: TreeWatcher): void {
    const taken = watcher.take();
    this.unusedBySnapshot.add(taken);
    // Nothing to keep up to date before the first listing (its walk sees everything).
    if (this.tree) this.unusedByTree.add(taken);
  }

  private walk(patterns: readonly string[], reason: string | undefined): ScanResult {
    // Taken before the walk: a change the walk misses is in the next take, not lost.
    if (this.watcher) {
      this.takeFrom(this.watcher);
      this.unusedBySnapshot.use();
    }
    const exclude = this.watcher ? this.readExcludeSignature() : undefined;
    const warnings: FilesWarning[] = [];
    const next = scanFiles(
      this.resolver,
      this.rootAbs,
      patterns,
      this.last,
      this.listings,
      warnings,
    );
    const changes = diff(this.last, next);
    this.last = next;
    if (this.watcher) {
      this.live = new LiveSnapshot(next);
      this.livePatterns = patterns.join('\0');
      this.excludeSignature = exclude;
    }
    return {
      snapshot: next,
      changes,
      warnings,
      by: 'walk',
      ...(reason === undefined ? {} : { walkReason: reason }),
    };
  }

  /** `.git/info/exclude` is below an unwatched `.git`: its stat stands in for its events. */
  private readExcludeSignature(): string {
    let stats: BigIntStats | undefined;
    try {
      stats = resolverInternals(this.resolver).fs.lstatSync(`${this.rootAbs}/.git/info/exclude`, {
        bigint: true,
      });
    } catch {
      return 'none';
    }
    return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  }
}
