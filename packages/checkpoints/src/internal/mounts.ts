import { readFileSync, realpathSync } from 'node:fs';

/**
 * The mount points listed in a `/proc/<pid>/mountinfo` text (the fifth field of each line), with
 * the kernel's octal escapes (`\040` for a space, `\012` for a newline...) decoded.
 */
export function mountPointsOf(mountinfo: string): string[] {
  const points: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const field = line.split(' ')[4];
    if (field === undefined) continue;
    points.push(
      field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))),
    );
  }
  return points;
}

/**
 * True when nothing is mounted strictly below `dir`, so every path under it names a file of
 * `dir`'s own tree and not, through a bind mount, a file elsewhere (a bind mount is a link that
 * lstat cannot see: same device, one link). False whenever that cannot be known: not Linux, no
 * `/proc`, `dir` missing. Read fresh on each call: mounts come and go.
 */
export function hasNoMountsBelow(dir: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const real = realpathSync.native(dir);
    const prefix = real.endsWith('/') ? real : `${real}/`;
    return !mountPointsOf(readFileSync('/proc/self/mountinfo', 'utf8')).some((point) =>
      point.startsWith(prefix),
    );
  } catch {
    return false;
  }
}
