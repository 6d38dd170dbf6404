import type { Dirent } from 'node:fs';
import type { Fs } from '@hankweave/durable-io';
import { isRacy, nowNs } from './racy.js';

interface Listing {
  readonly signature: string;
  readonly trusted: boolean;
  readonly entries: Dirent[];
}

/**
 * Directory listings kept between scans. Adding, removing or renaming an entry updates the
 * directory's mtime and ctime, so an unchanged lstat means the cached listing still holds and a
 * rescan costs one lstat instead of one readdir per directory. Listings read while the
 * directory's mtime was racy are not trusted and are read again next time.
 */
export class ListingCache {
  private listings = new Map<string, Listing>();
  private seen = new Set<string>();

  constructor(private readonly racyWindowNs: bigint) {}

  /** Lists `dirAbs`, from the cache when its stat is unchanged. Throws what the fs throws. */
  list(fs: Fs, dirAbs: string): Dirent[] {
    const observedAt = nowNs();
    // stat, not lstat: the root may be a symlink to a directory, and what must not change is
    // the directory. Every other directory of a walk is a real one (links are never followed).
    const stats = fs.statSync(dirAbs, { bigint: true });
    const signature = `${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
    this.seen.add(dirAbs);
    const cached = this.listings.get(dirAbs);
    if (cached?.trusted && cached.signature === signature) return cached.entries;
    const entries = fs.readdirSync(dirAbs, { withFileTypes: true });
    const trusted = !isRacy(stats.mtimeNs, observedAt, this.racyWindowNs);
    this.listings.set(dirAbs, { signature, trusted, entries });
    return entries;
  }

  /** Drops the listings of directories the last walk did not visit (deleted or now ignored). */
  sweep(): void {
    for (const dir of this.listings.keys()) if (!this.seen.has(dir)) this.listings.delete(dir);
    this.seen = new Set();
  }

  /** Forgets everything. */
  clear(): void {
    this.listings.clear();
    this.seen = new Set();
  }
}
