import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { type DataFingerprint, takeFingerprint } from './data-fingerprint.js';
import { type DataChange, diffFingerprints } from './fingerprint-diff.js';
import { type RestoreResult, restoreCopy } from './restore-copy.js';

/** Where the data source is and how the execution made it (`execution-meta.json`). */
export interface DataGuardOptions {
  /** `agentRoot/read_only_data_source`. */
  dataLink: string;
  /** `symlink`: the link leads to the user's own data; `copy`: it holds a copy of it. */
  linkType: 'symlink' | 'copy';
  /** The user's data (`readOnlySourceResolvedDataPath`): what a copy is restored from. */
  originalPath?: string;
  /** At most this many entries are compared (default 100,000). */
  maxEntries?: number;
}

/** The link itself: replacing or re-pointing it changes what the agent sees as the data. */
interface LinkIdentity {
  ino: number;
  isSymlink: boolean;
  target?: string;
}

function linkIdentity(path: string): LinkIdentity | undefined {
  try {
    const stats = lstatSync(path);
    return stats.isSymbolicLink()
      ? { ino: stats.ino, isSymlink: true, target: readlinkSync(path) }
      : { ino: stats.ino, isSymlink: false };
  } catch {
    return undefined;
  }
}

const sameLink = (a: LinkIdentity | undefined, b: LinkIdentity | undefined) =>
  a?.ino === b?.ino && a?.isSymlink === b?.isSymlink && a?.target === b?.target;

/**
 * Watches one data source for changes: a stat fingerprint is taken when the guard opens, and
 * `check()` compares the data with it. It walks the user's real data (the link's target, as
 * resolved when the guard opened), and looks at the link itself too. It reads no file contents
 * and relies on no file modes, so it sees writes by any process, root's included.
 */
export class DataGuard {
  readonly #options: DataGuardOptions;
  readonly #root: string;
  readonly #baseline: DataFingerprint;
  readonly #link: LinkIdentity | undefined;

  private constructor(options: DataGuardOptions, root: string) {
    this.#options = options;
    this.#root = root;
    this.#link = linkIdentity(options.dataLink);
    this.#baseline = this.#fingerprint();
  }

  /** Takes the baseline now; undefined when there is no data source at `dataLink` to guard. */
  static open(options: DataGuardOptions): DataGuard | undefined {
    let root: string;
    try {
      root = realpathSync(options.dataLink);
    } catch {
      return undefined;
    }
    return new DataGuard(options, root);
  }

  /** True when the data has more entries than the limit, so only the first ones are checked. */
  get partial(): boolean {
    return this.#baseline.truncated;
  }

  /** The data's real place (the link's target as resolved when the guard opened): what is walked. */
  get root(): string {
    return this.#root;
  }

  /** How many entries the baseline holds (at most the limit). */
  get size(): number {
    return this.#baseline.entries.size;
  }

  /**
   * True when the data holds a symbolic link: a write through it changes a file that may lie
   * outside the data, which no watcher of the data sees (the walk does: it records the target).
   */
  get hasLinks(): boolean {
    for (const entry of this.#baseline.entries.values()) if (entry.type === 'symlink') return true;
    return false;
  }

  /** Whether the changes can be undone: a copied data source is restored from the original. */
  get restorable(): boolean {
    return this.#options.linkType === 'copy' && this.#options.originalPath !== undefined;
  }

  /** What differs from the baseline, in walk order; empty when nothing does. */
  check(): DataChange[] {
    const changes = diffFingerprints(this.#baseline, this.#fingerprint());
    const [link] = this.checkLink();
    if (link && !changes.some((change) => change.path === '')) changes.unshift(link);
    return changes;
  }

  /** Only the link itself (an lstat, no walk): replaced, re-pointed or deleted since the baseline. */
  checkLink(): DataChange[] {
    const now = linkIdentity(this.#options.dataLink);
    if (sameLink(this.#link, now)) return [];
    return [{ path: '', kind: now ? 'modified' : 'deleted' }];
  }

  /**
   * Restores the changed paths of a copied data source from the original.
   * @throws {Error} when the data source is the user's own (a symlink): there is nothing to restore from.
   */
  restore(changes: readonly DataChange[]): Promise<RestoreResult> {
    const { originalPath, dataLink } = this.#options;
    if (!this.restorable || originalPath === undefined) {
      throw new Error(`${dataLink} is the user's own data, not a copy; it cannot be restored`);
    }
    return restoreCopy(dataLink, originalPath, changes);
  }

  #fingerprint(): DataFingerprint {
    return takeFingerprint(this.#root, {
      ...(this.#options.maxEntries !== undefined ? { maxEntries: this.#options.maxEntries } : {}),
    });
  }
}
