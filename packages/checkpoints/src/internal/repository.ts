import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { hasErrno } from '@hankweave/durable-io';
import { type Io, isAtomicTemp } from './io.js';
import { type Layout, TEMP_REPO_PREFIX } from './layout.js';
import { EMPTY_TREE, hashObject, RUNTIME_EMAIL, RUNTIME_NAME, serializeCommit } from './objects.js';

/** The message of the execution's first, empty commit. */
export const INITIAL_MESSAGE = 'Initial checkpoint setup\n';

/** The isolated identity file (seed 002), with our own address. */
export const GITCONFIG = `[user]\n\tname = ${RUNTIME_NAME}\n\temail = ${RUNTIME_EMAIL}\n[commit]\n\tgpgsign = false\n`;

/**
 * The repository's own config. `worktree` lets plain `GIT_DIR=... git status` find agentRoot;
 * `include` pulls in the isolated identity so a native `git commit` is attributed like ours;
 * `gc.auto=0` keeps a hand-run git from repacking under the engine; untracked files are hidden
 * from `git status` because only the resolved tracked list is ever checkpointed.
 */
const REPO_CONFIG = [
  '[core]',
  '\trepositoryformatversion = 0',
  '\tfilemode = true',
  '\tbare = false',
  '\tsymlinks = true',
  '\tlogallrefupdates = false',
  '\tworktree = ../../../agentRoot',
  '[gc]',
  '\tauto = 0',
  '[status]',
  '\tshowUntrackedFiles = no',
  '[include]',
  '\tpath = ../.gitconfig',
  '',
].join('\n');

/**
 * Creates the shadow repository if it does not exist: built completely in a temp directory next
 * to it (objects, refs, config, the initial commit), then renamed into place, so a crash never
 * leaves a half-made repository. Returns true when it created one.
 */
export async function ensureRepository(io: Io, layout: Layout, now: Date): Promise<boolean> {
  await io.fs.mkdir(layout.checkpointsDir, { recursive: true });
  await io.fs.mkdir(layout.workTree, { recursive: true });
  await sweepTempRepos(io, layout);
  const existingConfig = await io.readOptional(layout.gitConfig);
  if (existingConfig?.toString('utf8') !== GITCONFIG) {
    await io.writeAtomic(layout.gitConfig, GITCONFIG, { syncDir: true });
  }
  if (await io.lstat(join(layout.gitDir, 'HEAD'))) return false;

  const temp = join(
    layout.checkpointsDir,
    `${TEMP_REPO_PREFIX}${process.pid}-${Date.now()}-${randomBytes(3).toString('hex')}`,
  );
  const write = async (relative: string, data: Uint8Array | string): Promise<void> => {
    const handle = await io.fs.open(join(temp, relative), 'wx');
    try {
      await handle.writeFile(data);
      if (io.durable) await handle.sync();
    } finally {
      await handle.close();
    }
  };
  const writeObject = async (type: 'tree' | 'commit', content: Buffer): Promise<string> => {
    const oid = hashObject(type, content);
    await io.fs.mkdir(join(temp, 'objects', oid.slice(0, 2)), { recursive: true });
    await write(
      join('objects', oid.slice(0, 2), oid.slice(2)),
      deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])),
    );
    return oid;
  };
  try {
    for (const dir of ['objects/pack', 'objects/info', 'refs/heads', 'refs/tags']) {
      await io.fs.mkdir(join(temp, dir), { recursive: true });
    }
    await write('config', REPO_CONFIG);
    await write('description', 'Hankweave checkpoints: the shadow repository of one execution.\n');
    await write('HEAD', 'ref: refs/heads/main\n');
    await writeObject('tree', Buffer.alloc(0));
    const initial = await writeObject(
      'commit',
      serializeCommit(EMPTY_TREE, [], now, INITIAL_MESSAGE),
    );
    await write('refs/heads/main', `${initial}\n`);
    await io.syncDirectory(temp);
    await io.fs.rename(temp, layout.gitDir);
  } catch (error) {
    await io.fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
    // Another process won the race to create it: use theirs.
    if (hasErrno(error, 'ENOTEMPTY', 'EEXIST') && (await io.lstat(join(layout.gitDir, 'HEAD'))))
      return false;
    throw error;
  }
  await io.syncDirectory(layout.checkpointsDir);
  return true;
}

/** Removes temp repositories left by a crashed `ensureRepository`. */
async function sweepTempRepos(io: Io, layout: Layout): Promise<void> {
  for (const name of await io.readdir(layout.checkpointsDir)) {
    if (
      name.startsWith(TEMP_REPO_PREFIX) ||
      (name.startsWith('.gitconfig.') && isAtomicTemp(name))
    ) {
      await io.fs.rm(join(layout.checkpointsDir, name), { recursive: true, force: true });
    }
  }
}

/** Options of {@link sweepRepository}. */
export interface SweepOptions {
  /**
   * Leave shared leftovers (locks, temp objects and packs, a `.pack` without its `.idx`) younger
   * than this many milliseconds: another engine, in this process or another, may be writing
   * them right now. 0 sweeps everything, for an `open` that knows it is the only writer.
   */
  graceMs: number;
}

/**
 * Clears what a killed writer leaves behind: git lock files (`index.lock`, `HEAD.lock`,
 * `refs/**\/*.lock`...), temp objects and temp packs, and a `.pack` whose `.idx` never got
 * written (its objects were never visible). A branch work tree's own directory is swept whole
 * (one engine owns it); the shared files only past `graceMs`. Returns the loose object names per
 * fan-out directory, which primes the object store's existence checks.
 */
export async function sweepRepository(
  io: Io,
  layout: Layout,
  options: SweepOptions = { graceMs: 0 },
): Promise<Map<string, Set<string>>> {
  const now = Date.now();
  const removeStale = async (path: string): Promise<void> => {
    if (options.graceMs > 0) {
      const stat = await io.lstat(path);
      if (stat && now - Number(stat.mtimeMs) < options.graceMs) return;
    }
    await io.unlinkOptional(path);
  };
  const removeLocks = async (dir: string): Promise<void> => {
    for (const name of await io.readdir(dir)) {
      const path = join(dir, name);
      // Refs are only written under `.lock`; `.tmp-` is what earlier versions swept here. The
      // wider `isAtomicTemp` pattern could match a real branch name (`run-x.0123456789ab.tmp`).
      if (name.endsWith('.lock') || name.includes('.tmp-')) await removeStale(path);
      else if ((await io.lstat(path))?.isDirectory()) await removeLocks(path);
    }
  };
  for (const name of await io.readdir(layout.gitDir)) {
    if (name.endsWith('.lock') || isAtomicTemp(name)) await removeStale(join(layout.gitDir, name));
  }
  if (layout.worktree) {
    for (const name of await io.readdir(layout.worktree.dir)) {
      if (name.endsWith('.lock') || isAtomicTemp(name))
        await io.unlinkOptional(join(layout.worktree.dir, name));
    }
  }
  await removeLocks(join(layout.gitDir, 'refs'));
  await removeLocks(join(layout.gitDir, 'logs'));

  const packNames = await io.readdir(layout.packDir);
  const indexes = new Set(
    packNames.filter((name) => name.endsWith('.idx')).map((name) => name.slice(0, -4)),
  );
  for (const name of packNames) {
    const orphan = name.endsWith('.pack') && !indexes.has(name.slice(0, -5));
    if (orphan || name.startsWith('tmp_') || isAtomicTemp(name))
      await removeStale(join(layout.packDir, name));
  }

  const loose = new Map<string, Set<string>>();
  for (const prefix of await io.readdir(layout.objectsDir)) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    const names = new Set<string>();
    for (const name of await io.readdir(join(layout.objectsDir, prefix))) {
      if (name.startsWith('tmp_obj_')) await removeStale(join(layout.objectsDir, prefix, name));
      else names.add(name);
    }
    loose.set(prefix, names);
  }
  return loose;
}
