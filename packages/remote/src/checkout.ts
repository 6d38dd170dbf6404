import * as fs from 'node:fs';
import { chmod, lstat, mkdir, readlink, realpath, symlink, writeFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { isInside } from '@hankweave/durable-io';
import { RemoteError } from './errors.js';
import { isomorphicGit } from './iso-git.js';

/**
 * Writes the tree of `commit` (read from the bare repository `gitdir`) into the empty directory
 * `target`, refusing what a hostile repository could do to the disk: a name that is `.`, `..`,
 * `.git` or holds a separator; a symbolic link that is absolute or leads out of the tree (checked
 * as written, and again through the real paths once everything is written). Submodules become
 * empty directories. Reads objects only: the bare repository's index and HEAD are not touched,
 * so checkouts never disturb one another.
 *
 * @throws {RemoteError} REMOTE_UNSAFE_TREE
 */
export async function writeCommitTree(
  gitdir: string,
  commit: string,
  target: string,
  url: string,
): Promise<{ files: number; links: string[] }> {
  const git = await isomorphicGit();
  const { commit: object } = await git.readCommit({ fs, gitdir, oid: commit });
  const links: string[] = [];
  let files = 0;
  const unsafe = (path: string, why: string): never => {
    throw new RemoteError(
      'REMOTE_UNSAFE_TREE',
      `${url} at ${commit.slice(0, 12)}: ${path} ${why}; hankweave does not check out such a tree`,
      { details: { url, commit, path } },
    );
  };
  const walk = async (treeOid: string, dir: string): Promise<void> => {
    const { tree } = await git.readTree({ fs, gitdir, oid: treeOid });
    for (const entry of tree) {
      const name = entry.path;
      const path = dir === '' ? name : `${dir}/${name}`;
      if (
        name === '' ||
        name === '.' ||
        name === '..' ||
        name.includes('/') ||
        name.includes('\0') ||
        name.toLowerCase() === '.git'
      ) {
        unsafe(JSON.stringify(path), 'is not a name a checkout may write');
      }
      const out = join(target, ...path.split('/'));
      if (entry.type === 'tree') {
        await mkdir(out);
        await walk(entry.oid, path);
      } else if (entry.type === 'commit') {
        await mkdir(out); // a submodule: not fetched
      } else if (entry.mode === '120000') {
        const { blob } = await git.readBlob({ fs, gitdir, oid: entry.oid });
        const link = Buffer.from(blob).toString('utf8');
        const lexical = posix.normalize(posix.join(dir, link));
        if (
          link.startsWith('/') ||
          link.includes('\0') ||
          lexical === '..' ||
          lexical.startsWith('../')
        ) {
          unsafe(path, `is a symbolic link to ${JSON.stringify(link)}, outside the repository`);
        }
        await symlink(link, out);
        links.push(path);
      } else {
        const { blob } = await git.readBlob({ fs, gitdir, oid: entry.oid });
        await writeFile(out, blob, { flag: 'wx' });
        if (entry.mode === '100755') await chmod(out, 0o755);
        files += 1;
      }
    }
  };
  await walk(object.tree, '');
  // Links through links can still lead out (`a -> ..` inside a folder, then `b -> a/..`).
  const root = await realpath(target);
  for (const path of links) {
    const out = join(target, ...path.split('/'));
    let real: string | undefined;
    try {
      real = await realpath(out);
    } catch {
      // Dangling: harmless only when its text is a plain relative path with no `..` at all.
      const text = await readlink(out);
      if (text.split('/').includes('..')) unsafe(path, 'is a dangling symbolic link that climbs');
      continue;
    }
    if (!isInside(root, real)) {
      unsafe(
        path,
        `is a symbolic link that resolves outside the repository (${relative(root, real).split(sep).join('/')})`,
      );
    }
  }
  // Every name written was checked; `lstat` here only proves the root is still a directory.
  await lstat(target);
  return { files, links };
}
