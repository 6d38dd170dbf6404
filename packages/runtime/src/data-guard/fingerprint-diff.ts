import {
  compareWalkOrder,
  type DataEntry,
  type DataEntryStat,
  type DataFingerprint,
} from './data-fingerprint.js';

/** One path of the data source that is not as it was. */
export interface DataChange {
  /** Relative to the data source; `''` is the data source itself. */
  path: string;
  kind: 'created' | 'modified' | 'deleted';
}

const sameStat = (a: DataEntryStat | undefined, b: DataEntryStat | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.type === b.type &&
    a.ino === b.ino &&
    // A directory's times and size move whenever an entry inside it comes or goes; those
    // entries are reported themselves. Its own changes (chmod) are caught below.
    (a.type === 'directory' ||
      (a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs)));

const sameEntry = (a: DataEntry, b: DataEntry): boolean =>
  sameStat(a, b) && sameStat(a.target, b.target);

const parentOf = (path: string): string | undefined =>
  path === '' ? undefined : path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';

/**
 * What changed between two fingerprints of the same data source, in walk order. A directory
 * whose own times changed is reported only when nothing inside it was (then its mode or owner
 * changed). When either fingerprint was cut at its limit, only the paths both walks reached are
 * compared, so an entry pushed past the limit by a new one is not reported as deleted.
 */
export function diffFingerprints(before: DataFingerprint, after: DataFingerprint): DataChange[] {
  const horizon = [before, after]
    .filter((print) => print.truncated)
    .map((print) => [...print.entries.keys()].at(-1) ?? '')
    .sort(compareWalkOrder)[0];
  const reached = (path: string) => horizon === undefined || compareWalkOrder(path, horizon) <= 0;
  const changes: DataChange[] = [];
  const touchedDirectories: string[] = [];
  for (const [path, old] of before.entries) {
    if (!reached(path)) continue;
    const now = after.entries.get(path);
    if (!now) changes.push({ path, kind: 'deleted' });
    else if (!sameEntry(old, now)) changes.push({ path, kind: 'modified' });
    else if (old.type === 'directory' && old.ctimeMs !== now.ctimeMs) touchedDirectories.push(path);
  }
  for (const path of after.entries.keys()) {
    if (reached(path) && !before.entries.has(path)) changes.push({ path, kind: 'created' });
  }
  const parents = new Set(changes.map((change) => parentOf(change.path)));
  for (const path of touchedDirectories) {
    if (!parents.has(path)) changes.push({ path, kind: 'modified' });
  }
  return changes.sort((a, b) => compareWalkOrder(a.path, b.path));
}
