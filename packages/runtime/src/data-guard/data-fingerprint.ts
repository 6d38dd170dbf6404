import { lstatSync, readdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

/** What an entry of the data source is (a symlink is recorded as itself, not followed). */
export type DataEntryType = 'file' | 'directory' | 'symlink' | 'other';

/** The stat facts of one entry: enough to see a write, with no content read. */
export interface DataEntryStat {
  type: DataEntryType;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** One entry; a symlink also carries what it points at (a write through it changes that). */
export interface DataEntry extends DataEntryStat {
  target?: DataEntryStat;
}

/** A stat walk of a data source at one moment. */
export interface DataFingerprint {
  /** Relative paths (`/`-separated, `''` is the root itself) in walk order. */
  entries: Map<string, DataEntry>;
  /** The data held more entries than the limit: only the first ones in walk order are here. */
  truncated: boolean;
}

/** The most entries one fingerprint records (beyond it the check is partial). */
export const MAX_FINGERPRINT_ENTRIES = 100_000;

function entryStat(stats: Stats): DataEntryStat {
  const type: DataEntryType = stats.isSymbolicLink()
    ? 'symlink'
    : stats.isDirectory()
      ? 'directory'
      : stats.isFile()
        ? 'file'
        : 'other';
  return { type, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

function describeEntry(path: string): DataEntry | undefined {
  let own: Stats;
  try {
    own = lstatSync(path);
  } catch {
    return undefined; // Gone between the listing and the stat: absent.
  }
  const entry: DataEntry = entryStat(own);
  if (own.isSymbolicLink()) {
    try {
      entry.target = entryStat(statSync(path));
    } catch {
      // A link to nothing: the link's own facts are all there is.
    }
  }
  return entry;
}

/**
 * Takes the fingerprint of the tree at `root`, following `root` itself when it is a symlink (the
 * user's real data) but no link below it (a link is recorded with its target's facts, and a
 * linked directory is not entered: links may form cycles). Names are visited sorted, depth first,
 * so the order is stable and "the first N entries" means the same thing every time.
 */
export function takeFingerprint(
  root: string,
  options: { maxEntries?: number } = {},
): DataFingerprint {
  const maxEntries = options.maxEntries ?? MAX_FINGERPRINT_ENTRIES;
  const entries = new Map<string, DataEntry>();
  let rootStats: Stats;
  try {
    rootStats = statSync(root);
  } catch {
    return { entries, truncated: false };
  }
  entries.set('', entryStat(rootStats));
  if (!rootStats.isDirectory()) return { entries, truncated: false };
  let count = 0;
  let truncated = false;
  const walk = (dir: string, prefix: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // Unreadable or gone: its own entry still records it.
    }
    names.sort();
    for (const name of names) {
      if (count >= maxEntries) {
        truncated = true;
        return;
      }
      const path = join(dir, name);
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      const entry = describeEntry(path);
      if (!entry) continue;
      entries.set(relative, entry);
      count++;
      if (entry.type === 'directory') walk(path, relative);
      if (truncated) return;
    }
  };
  walk(root, '');
  return { entries, truncated };
}

/**
 * Orders paths as the walk visits them: component by component (so `a/b` comes before `a-c`,
 * as the walk finishes `a` before it reaches `a-c`).
 */
export function compareWalkOrder(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index] as string;
    const y = right[index] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
