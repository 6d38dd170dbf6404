import type { FilesWarning } from './errors.js';
import { ListingCache } from './internal/listing-cache.js';
import { absoluteRoot } from './internal/paths.js';
import { diff, type FileChanges, type FileSnapshot, scanFiles } from './snapshot.js';
import { resolverInternals, UnifiedFileResolver } from './unified-file-resolver.js';

/** Options of {@link ChangeScanner}. */
export interface ChangeScannerOptions {
  /** The resolver to use (and whose caches to share); default a new one. */
  readonly resolver?: UnifiedFileResolver;
  /** The snapshot the first scan compares with; default empty (every file is `created`). */
  readonly baseline?: FileSnapshot;
}

/** What {@link ChangeScanner.scan} returns. */
export interface ScanResult {
  readonly snapshot: FileSnapshot;
  readonly changes: FileChanges;
  readonly warnings: FilesWarning[];
}

/**
 * Incremental change detection for one root, meant to run after every tool call that may have
 * touched files. Each scan lstats every directory it walks and reads again only those whose
 * stat changed (a new or deleted entry changes the directory's mtime), then lstats the matching
 * files and compares them with the previous scan.
 */
export class ChangeScanner {
  private readonly resolver: UnifiedFileResolver;
  private readonly listings: ListingCache;
  private readonly rootAbs: string;
  private last: FileSnapshot;

  constructor(root: string, options: ChangeScannerOptions = {}) {
    this.rootAbs = absoluteRoot(root);
    this.resolver = options.resolver ?? new UnifiedFileResolver();
    this.listings = new ListingCache(resolverInternals(this.resolver).racyWindowNs);
    this.last = options.baseline ?? new Map();
  }

  /** The snapshot of the last scan (or the baseline). */
  get current(): FileSnapshot {
    return this.last;
  }

  /**
   * Scans `patterns` and reports what changed since the previous scan. A file that starts or
   * stops matching because the patterns changed is reported as created or deleted.
   *
   * @throws {FilesError} as {@link UnifiedFileResolver.resolve} does.
   */
  scan(patterns: readonly string[]): ScanResult {
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
    return { snapshot: next, changes, warnings };
  }

  /**
   * Sets the snapshot the next scan compares with (e.g. after a rollback restored files) and
   * forgets cached directory listings.
   */
  reset(baseline: FileSnapshot = new Map()): void {
    this.last = baseline;
    this.listings.clear();
  }
}
