import type { Pool, PoolClient } from 'pg';
import { ensureSchema } from '../internal/schema.js';
import { inTransaction } from '../internal/transaction.js';
import { type FsError, fsError } from './fs-errors.js';
import { ancestorsOf, parentOf } from './fs-paths.js';

/**
 * The one table of the file system (schema component `files`, version 1). A row is a file or a
 * directory of one namespace, keyed by its absolute path; `parent` makes listing a directory an
 * index range. `inode` is the row's identity: it survives renames, so an open handle keeps
 * writing to its file after a rename, as on a real file system. Paths use the C collation so
 * that `/a/` prefixes are index ranges.
 */
export const FILES_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS hankweave_files (
     namespace text NOT NULL,
     path text COLLATE "C" NOT NULL,
     parent text COLLATE "C" NOT NULL,
     kind text NOT NULL CHECK (kind IN ('file', 'directory')),
     inode bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
     bytes bytea NOT NULL DEFAULT '\\x',
     mode integer NOT NULL,
     mtime_ms double precision NOT NULL,
     PRIMARY KEY (namespace, path))`,
  'CREATE INDEX IF NOT EXISTS hankweave_files_parent ON hankweave_files (namespace, parent)',
];

/** A file or directory as stored (without its bytes). */
export interface Entry {
  path: string;
  kind: 'file' | 'directory';
  inode: string;
  size: number;
  /** Permission bits only (`0o644`); the type bits come from `kind`. */
  mode: number;
  mtimeMs: number;
}

/** Runs one statement: the pool, or the client of a transaction. */
export type Query = <R extends object = Record<string, unknown>>(
  text: string,
  values?: unknown[],
) => Promise<R[]>;

/** Row locks an entry lookup may take. */
export type Lock = '' | 'FOR UPDATE' | 'FOR KEY SHARE';

/** The columns every lookup selects, in the shape of {@link Entry}. */
export const ENTRY_COLUMNS = `path, kind, inode::text AS inode, octet_length(bytes) AS size, mode,
  mtime_ms AS "mtimeMs"`;

// `/` always exists and has no row: nothing can delete or rename it.
const ROOT: Entry = { path: '/', kind: 'directory', inode: '0', size: 0, mode: 0o755, mtimeMs: 0 };

const queryOf =
  (target: Pick<Pool | PoolClient, 'query'>): Query =>
  async <R extends object>(text: string, values: unknown[] = []) =>
    (await target.query<R>(text, values)).rows;

/** The rows of one namespace, and the lookups every operation shares. */
export class FilesTable {
  readonly pool: Pool;
  readonly namespace: string;
  readonly now: () => number;
  /** One statement on the pool (autocommit). */
  readonly query: Query;

  constructor(pool: Pool, namespace: string, now: () => number) {
    this.pool = pool;
    this.namespace = namespace;
    this.now = now;
    this.query = queryOf(pool);
  }

  /** Creates the table if needed (once per pool). */
  ready(): Promise<void> {
    return ensureSchema(this.pool, 'files', FILES_DDL);
  }

  /** Runs `work` in one transaction: every change it makes commits together, or none does. */
  async transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    await this.ready();
    return inTransaction(this.pool, (client) => work(queryOf(client)));
  }

  /** The entry at `path`, optionally locking its row; undefined when there is none. */
  async entry(query: Query, path: string, lock: Lock = ''): Promise<Entry | undefined> {
    if (path === '/') return ROOT;
    const [row] = await query<Entry>(
      `SELECT ${ENTRY_COLUMNS} FROM hankweave_files WHERE namespace = $1 AND path = $2 ${lock}`,
      [this.namespace, path],
    );
    return row === undefined ? undefined : { ...row, size: Number(row.size) };
  }

  /**
   * The error for a `path` that has no entry: ENOTDIR when a component above it is a file,
   * else ENOENT.
   */
  async missing(query: Query, path: string, syscall: string, dest?: string): Promise<FsError> {
    const above = ancestorsOf(path);
    const rows = await query<{ path: string; kind: string }>(
      'SELECT path, kind FROM hankweave_files WHERE namespace = $1 AND path = ANY($2)',
      [this.namespace, above],
    );
    const kinds = new Map(rows.map((row) => [row.path, row.kind]));
    for (const dir of above) {
      const kind = kinds.get(dir);
      if (kind === undefined) break;
      if (kind !== 'directory') return fsError('ENOTDIR', syscall, path, { dest });
    }
    return fsError('ENOENT', syscall, path, { dest });
  }

  /** The entry at `path`, or the ENOENT / ENOTDIR error a real file system gives. */
  async existing(query: Query, path: string, syscall: string, lock: Lock = ''): Promise<Entry> {
    const found = await this.entry(query, path, lock);
    if (found === undefined) throw await this.missing(query, path, syscall);
    return found;
  }

  /**
   * Checks that the directory `path` goes into exists, and key-share-locks it until the
   * transaction ends, so it cannot be removed or renamed while an entry is created in it.
   */
  async requireParent(query: Query, path: string, syscall: string, dest?: string): Promise<void> {
    const parent = parentOf(path);
    const found = await this.entry(query, parent, 'FOR KEY SHARE');
    const shown = dest ?? path;
    if (found === undefined) {
      const error = await this.missing(query, parent, syscall);
      throw fsError(error.code, syscall, shown);
    }
    if (found.kind !== 'directory') throw fsError('ENOTDIR', syscall, shown);
  }

  /** True when the directory `path` has at least one entry. */
  async hasChildren(query: Query, path: string): Promise<boolean> {
    const rows = await query(
      'SELECT 1 FROM hankweave_files WHERE namespace = $1 AND parent = $2 LIMIT 1',
      [this.namespace, path],
    );
    return rows.length > 0;
  }

  /** Inserts a new entry; undefined when the path was taken meanwhile (the caller decides). */
  async insert(
    query: Query,
    path: string,
    kind: Entry['kind'],
    mode: number,
    bytes: Buffer = Buffer.alloc(0),
  ): Promise<string | undefined> {
    const [row] = await query<{ inode: string }>(
      `INSERT INTO hankweave_files (namespace, path, parent, kind, bytes, mode, mtime_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (namespace, path) DO NOTHING RETURNING inode::text AS inode`,
      [this.namespace, path, parentOf(path), kind, bytes, mode, this.now()],
    );
    return row?.inode;
  }
}
