import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** One entry of a tree as {@link treeDigest} records it. */
export interface DigestEntry {
  type: 'file' | 'dir' | 'symlink' | 'other';
  /** Permission bits (a `chmod 000` is a change). */
  mode: number;
  /** sha256 of a file's bytes, a link's target. */
  content?: string;
}

/**
 * Every path under `root` (relative, `''` for the root itself) with its type, mode and content,
 * read with `lstat` (links are recorded, never followed). Two digests are equal exactly when the
 * trees are byte-identical, permissions included.
 */
export function treeDigest(root: string): Record<string, DigestEntry> {
  const out: Record<string, DigestEntry> = {};
  const visit = (relative: string) => {
    const path = relative === '' ? root : join(root, relative);
    const stat = lstatSync(path);
    const mode = stat.mode & 0o7777;
    if (stat.isSymbolicLink()) {
      out[relative] = { type: 'symlink', mode, content: readlinkSync(path) };
    } else if (stat.isFile()) {
      const content = createHash('sha256').update(readFileSync(path)).digest('hex');
      out[relative] = { type: 'file', mode, content };
    } else if (stat.isDirectory()) {
      out[relative] = { type: 'dir', mode };
      for (const name of readdirSync(path).sort())
        visit(relative === '' ? name : `${relative}/${name}`);
    } else {
      out[relative] = { type: 'other', mode };
    }
  };
  visit('');
  return out;
}
