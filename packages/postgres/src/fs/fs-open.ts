import { constants } from 'node:fs';
import type { FilesTable } from './files-table.js';
import { fsError } from './fs-errors.js';
import { type OpenFlags, PgFileHandle } from './pg-file-handle.js';

// Node applies the process umask to new files; a table has no process, so the usual 022 is fixed.
const UMASK = 0o022;

const flags = (text: string): OpenFlags | undefined => {
  const plus = text.includes('+');
  const exclusive = text.includes('x');
  switch (text.replace(/[+xs]/g, '')) {
    case 'r':
      return exclusive
        ? undefined
        : { read: true, write: plus, create: false, exclusive, truncate: false, append: false };
    case 'w':
      return { read: plus, write: true, create: true, exclusive, truncate: true, append: false };
    case 'a':
      return { read: plus, write: true, create: true, exclusive, truncate: false, append: true };
    default:
      return undefined;
  }
};

/** `open`'s flags as a string (`'r'`, `'wx'`, `'a+'`, ...) or as `O_*` bits. */
export function parseOpenFlags(value: unknown, path: string): OpenFlags {
  if (value === undefined || value === null) return flags('r') as OpenFlags;
  if (typeof value === 'number') {
    const access = value & 3;
    return {
      read: access !== constants.O_WRONLY,
      write: access !== constants.O_RDONLY,
      create: (value & constants.O_CREAT) !== 0,
      exclusive: (value & constants.O_EXCL) !== 0,
      truncate: (value & constants.O_TRUNC) !== 0,
      append: (value & constants.O_APPEND) !== 0,
    };
  }
  const parsed = typeof value === 'string' ? flags(value) : undefined;
  if (parsed === undefined)
    throw fsError('EINVAL', 'open', path, { detail: `flags ${String(value)}` });
  return parsed;
}

/**
 * `open(path, flags, mode)`. Creating (`w`, `a`, `x`) runs in one transaction that locks the
 * parent directory, so the file appears whole or not at all; `x` fails with EEXIST when the
 * path exists, also when two callers race for it (the primary key decides).
 */
export async function openFile(
  table: FilesTable,
  path: string,
  open: OpenFlags,
  mode = 0o666,
): Promise<PgFileHandle> {
  await table.ready();
  if (!open.create) {
    const entry = await table.existing(table.query, path, 'open');
    if (entry.kind === 'directory' && open.write) throw fsError('EISDIR', 'open', path);
    return new PgFileHandle(table, path, entry, open);
  }
  const entry = await table.transaction(async (query) => {
    for (;;) {
      const found = await table.entry(query, path, 'FOR UPDATE');
      if (found !== undefined) {
        if (open.exclusive) throw fsError('EEXIST', 'open', path);
        if (found.kind === 'directory') throw fsError('EISDIR', 'open', path);
        if (open.truncate && found.size > 0) {
          await query(
            `UPDATE hankweave_files SET bytes = '\\x', mtime_ms = $3
              WHERE namespace = $1 AND path = $2`,
            [table.namespace, path, table.now()],
          );
          return { ...found, size: 0 };
        }
        return found;
      }
      await table.requireParent(query, path, 'open');
      if ((await table.insert(query, path, 'file', mode & 0o7777 & ~UMASK)) !== undefined) {
        return table.existing(query, path, 'open');
      }
      // Created by a concurrent transaction that committed meanwhile: look again.
      if (open.exclusive) throw fsError('EEXIST', 'open', path);
    }
  });
  return new PgFileHandle(table, path, entry, open);
}
