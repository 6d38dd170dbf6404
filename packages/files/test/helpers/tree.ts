import {
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

// Temporary directories come from `makeTempDir` (@hankweave/durable-io/testing); the helpers here
// fill one with a tree.

/**
 * Writes a tree: keys are POSIX paths; a string value is file content, `{ link }` a symlink,
 * `{ dir: true }` an (empty) directory.
 */
export type TreeSpec = Record<string, string | { link: string } | { dir: true }>;

export function writeTree(root: string, spec: TreeSpec): void {
  for (const [path, value] of Object.entries(spec)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof value === 'string') writeFileSync(abs, value);
    else if ('link' in value) symlinkSync(value.link, abs);
    else mkdirSync(abs, { recursive: true });
  }
}

/**
 * Moves every mtime under `root` (root included, symlinks not followed) an hour back, so that
 * nothing is "racy" any more: what a tree looks like between two tool calls.
 */
export function ageTree(root: string): void {
  const past = new Date(Date.now() - 3_600_000);
  const visit = (path: string) => {
    const stats = lstatSync(path);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    lutimesSync(path, past, past);
  };
  visit(root);
}
