import { constants } from 'node:fs';
import { ENTRY_COLUMNS, type Entry, type FilesTable } from './files-table.js';
import { fsError } from './fs-errors.js';
import { ancestorsOf, parentOf } from './fs-paths.js';
import { PgDirent, PgStats } from './pg-stats.js';

// Each operation is one statement or one transaction: atomic, and committed (durable) when it
// resolves. Errors are Node's, chosen as Linux chooses them.

const UMASK = 0o022;

/** `[from, to)`: the C-collated range of every path strictly below `dir`. */
const below = (dir: string): [string, string] => [`${dir}/`, `${dir}0`]; // '0' follows '/'

export async function stat(table: FilesTable, path: string): Promise<PgStats> {
  await table.ready();
  return new PgStats(await table.existing(table.query, path, 'stat'));
}

export async function readFile(table: FilesTable, path: string): Promise<Buffer> {
  await table.ready();
  const [row] = await table.query<{ kind: string; bytes: Buffer }>(
    'SELECT kind, bytes FROM hankweave_files WHERE namespace = $1 AND path = $2',
    [table.namespace, path],
  );
  if (row === undefined) {
    if (path === '/') throw fsError('EISDIR', 'read', path);
    throw await table.missing(table.query, path, 'open');
  }
  if (row.kind === 'directory') throw fsError('EISDIR', 'read', path);
  return row.bytes;
}

/** The entries of a directory, sorted by name, read in one snapshot with the directory itself. */
export async function readdir(
  table: FilesTable,
  path: string,
  withFileTypes: boolean,
): Promise<string[] | PgDirent[]> {
  await table.ready();
  const rows = await table.query<{ path: string; kind: Entry['kind'] }>(
    `SELECT path, kind FROM hankweave_files
      WHERE namespace = $1 AND (path = $2 OR parent = $2) ORDER BY path`,
    [table.namespace, path],
  );
  const self = path === '/' ? { kind: 'directory' } : rows.find((row) => row.path === path);
  if (self === undefined) throw await table.missing(table.query, path, 'scandir');
  if (self.kind !== 'directory') throw fsError('ENOTDIR', 'scandir', path);
  const children = rows.filter((row) => row.path !== path);
  return withFileTypes
    ? children.map((row) => new PgDirent(row.path, row.kind))
    : children.map((row) => row.path.slice(path === '/' ? 1 : path.length + 1));
}

/** `mkdir`; with `recursive`, creates the missing parents and returns the first one created. */
export async function mkdir(
  table: FilesTable,
  path: string,
  recursive: boolean,
  mode = 0o777,
): Promise<string | undefined> {
  const permissions = mode & 0o7777 & ~UMASK;
  return table.transaction(async (query) => {
    if (!recursive) {
      await table.requireParent(query, path, 'mkdir');
      if ((await table.insert(query, path, 'directory', permissions)) === undefined) {
        throw fsError('EEXIST', 'mkdir', path);
      }
      return undefined;
    }
    let first: string | undefined;
    for (const dir of [...ancestorsOf(path), path]) {
      const found = await table.entry(query, dir, 'FOR KEY SHARE');
      if (found !== undefined) {
        if (found.kind !== 'directory')
          throw fsError(dir === path ? 'EEXIST' : 'ENOTDIR', 'mkdir', path);
        continue;
      }
      if ((await table.insert(query, dir, 'directory', permissions)) === undefined) {
        // Made by someone else meanwhile: lock and check it on the next round.
        throw Object.assign(new Error('concurrent mkdir'), { code: '40001' });
      }
      first ??= dir;
    }
    return first;
  });
}

/**
 * `rename`: atomic in one transaction. Replaces a file, or an empty directory with a directory;
 * a directory moves with everything below it.
 */
export async function rename(table: FilesTable, from: string, to: string): Promise<void> {
  await table.transaction(async (query) => {
    const source = await table.entry(query, from, 'FOR UPDATE');
    if (source === undefined || from === '/') {
      const error = await table.missing(query, from, 'rename');
      throw fsError(from === '/' ? 'EBUSY' : error.code, 'rename', from, { dest: to });
    }
    if (from === to) return;
    if (to.startsWith(`${from}/`) || to === '/')
      throw fsError('EINVAL', 'rename', from, { dest: to });
    await table.requireParent(query, to, 'rename', to);
    const target = await table.entry(query, to, 'FOR UPDATE');
    if (target !== undefined) {
      if (source.kind === 'file' && target.kind === 'directory') {
        throw fsError('EISDIR', 'rename', from, { dest: to });
      }
      if (source.kind === 'directory' && target.kind === 'file') {
        throw fsError('ENOTDIR', 'rename', from, { dest: to });
      }
      if (target.kind === 'directory' && (await table.hasChildren(query, to))) {
        throw fsError('ENOTEMPTY', 'rename', from, { dest: to });
      }
      await query('DELETE FROM hankweave_files WHERE namespace = $1 AND path = $2', [
        table.namespace,
        to,
      ]);
    }
    await query(
      'UPDATE hankweave_files SET path = $3, parent = $4 WHERE namespace = $1 AND path = $2',
      [table.namespace, from, to, parentOf(to)],
    );
    if (source.kind === 'directory') {
      const [start, end] = below(from);
      await query(
        `UPDATE hankweave_files
            SET path = $4 || substr(path, length($5) + 1), parent = $4 || substr(parent, length($5) + 1)
          WHERE namespace = $1 AND path >= $2 AND path < $3`,
        [table.namespace, start, end, to, from],
      );
    }
  });
}

/**
 * `link`: `to` becomes a file with the content and mode of `from`, atomically; EEXIST when `to`
 * exists. A copy, not a shared inode: a later in-place write to one name does not show through
 * the other (README "The file system").
 */
export async function link(table: FilesTable, from: string, to: string): Promise<void> {
  await table.transaction(async (query) => {
    const source = await table.entry(query, from, 'FOR KEY SHARE');
    if (source === undefined)
      throw fsError((await table.missing(query, from, 'link')).code, 'link', from, { dest: to });
    if (source.kind === 'directory') throw fsError('EPERM', 'link', from, { dest: to });
    await table.requireParent(query, to, 'link', to);
    const made = await query(
      `INSERT INTO hankweave_files (namespace, path, parent, kind, bytes, mode, mtime_ms)
       SELECT namespace, $3, $4, kind, bytes, mode, mtime_ms FROM hankweave_files
        WHERE namespace = $1 AND path = $2
       ON CONFLICT (namespace, path) DO NOTHING RETURNING inode`,
      [table.namespace, from, to, parentOf(to)],
    );
    if (made.length === 0) throw fsError('EEXIST', 'link', from, { dest: to });
  });
}

/** `copyFile`; `COPYFILE_EXCL` in `mode` fails with EEXIST when `to` exists. */
export async function copyFile(
  table: FilesTable,
  from: string,
  to: string,
  mode = 0,
): Promise<void> {
  await table.transaction(async (query) => {
    const source = await table.existing(query, from, 'copyfile', 'FOR KEY SHARE');
    if (source.kind === 'directory') throw fsError('EISDIR', 'copyfile', from, { dest: to });
    await table.requireParent(query, to, 'copyfile', to);
    const target = await table.entry(query, to, 'FOR UPDATE');
    if (target !== undefined) {
      if ((mode & constants.COPYFILE_EXCL) !== 0)
        throw fsError('EEXIST', 'copyfile', from, { dest: to });
      if (target.kind === 'directory') throw fsError('EISDIR', 'copyfile', from, { dest: to });
      await query(
        `UPDATE hankweave_files SET mtime_ms = $4,
            bytes = (SELECT bytes FROM hankweave_files WHERE namespace = $1 AND path = $2)
          WHERE namespace = $1 AND path = $3`,
        [table.namespace, from, to, table.now()],
      );
      return;
    }
    await query(
      `INSERT INTO hankweave_files (namespace, path, parent, kind, bytes, mode, mtime_ms)
       SELECT namespace, $3, $4, 'file', bytes, mode, $5 FROM hankweave_files
        WHERE namespace = $1 AND path = $2`,
      [table.namespace, from, to, parentOf(to), table.now()],
    );
  });
}

/** `unlink`: removes a file (EISDIR for a directory, as Linux says). */
export async function unlink(table: FilesTable, path: string): Promise<void> {
  await table.ready();
  const removed = await table.query(
    `DELETE FROM hankweave_files WHERE namespace = $1 AND path = $2 AND kind = 'file'
     RETURNING inode`,
    [table.namespace, path],
  );
  if (removed.length > 0) return;
  const found = await table.entry(table.query, path);
  if (found !== undefined) throw fsError('EISDIR', 'unlink', path);
  throw await table.missing(table.query, path, 'unlink');
}

/** `rmdir`: removes an empty directory. */
export async function rmdir(table: FilesTable, path: string): Promise<void> {
  await table.transaction(async (query) => {
    const found = await table.existing(query, path, 'rmdir', 'FOR UPDATE');
    if (path === '/') throw fsError('EBUSY', 'rmdir', path);
    if (found.kind !== 'directory') throw fsError('ENOTDIR', 'rmdir', path);
    if (await table.hasChildren(query, path)) throw fsError('ENOTEMPTY', 'rmdir', path);
    await query('DELETE FROM hankweave_files WHERE namespace = $1 AND path = $2', [
      table.namespace,
      path,
    ]);
  });
}

/** `rm`: a file, or with `recursive` a whole tree, in one transaction; `force` ignores a miss. */
export async function rm(
  table: FilesTable,
  path: string,
  options: { recursive?: boolean; force?: boolean },
): Promise<void> {
  await table.transaction(async (query) => {
    const found = await table.entry(query, path, 'FOR UPDATE');
    if (found === undefined) {
      if (options.force) return;
      throw await table.missing(query, path, 'rm');
    }
    if (found.kind === 'directory' && !options.recursive)
      throw fsError('ERR_FS_EISDIR', 'rm', path);
    const [start, end] = path === '/' ? ['/', '0'] : below(path);
    await query(
      `DELETE FROM hankweave_files
        WHERE namespace = $1 AND (path = $2 OR (path >= $3 AND path < $4))`,
      [table.namespace, path, start, end],
    );
  });
}

/** `chmod` or `utimes` of a path: one UPDATE of its row. */
export async function updateEntry(
  table: FilesTable,
  syscall: 'chmod' | 'utime',
  path: string,
  value: number,
): Promise<void> {
  await table.ready();
  const column = syscall === 'chmod' ? 'mode' : 'mtime_ms';
  const rows = await table.query(
    `UPDATE hankweave_files SET ${column} = $3 WHERE namespace = $1 AND path = $2
     RETURNING ${ENTRY_COLUMNS}`,
    [table.namespace, path, syscall === 'chmod' ? value & 0o7777 : value],
  );
  if (rows.length === 0) throw await table.missing(table.query, path, syscall);
}
