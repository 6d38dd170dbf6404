import { ENTRY_COLUMNS, type Entry, type FilesTable } from './files-table.js';
import { asFsCall, fsError } from './fs-errors.js';
import { PgStats } from './pg-stats.js';

/** What an `open` flag allows. */
export interface OpenFlags {
  read: boolean;
  write: boolean;
  create: boolean;
  exclusive: boolean;
  truncate: boolean;
  append: boolean;
}

// A made-up descriptor number, unique per handle, for code that logs `fd`: no kernel descriptor
// is involved.
let nextFd = 1_000_000;

type Encoding = BufferEncoding | null | undefined;
type WriteOptions = Encoding | { encoding?: Encoding };

const encodingOf = (options: unknown): BufferEncoding | undefined => {
  if (typeof options === 'string') return options as BufferEncoding;
  const encoding = (options as { encoding?: Encoding } | null | undefined)?.encoding;
  return encoding ?? undefined;
};

const toBuffer = (data: unknown, encoding?: BufferEncoding): Buffer => {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw Object.assign(new TypeError('data must be a string or a Uint8Array'), {
    code: 'ERR_INVALID_ARG_TYPE',
  });
};

// The writes are single statements, each committed (so durable) before it resolves: there is no
// page cache to flush, and `sync()` only has to check that the handle is open.
const WRITE_AT = `UPDATE hankweave_files SET
    bytes = CASE
      WHEN $3::bigint IS NULL THEN bytes || $4::bytea
      WHEN octet_length(bytes) >= $3::bigint
        THEN overlay(bytes PLACING $4::bytea FROM ($3::bigint + 1)::int FOR octet_length($4::bytea))
      ELSE bytes || decode(repeat('00', ($3::bigint - octet_length(bytes))::int), 'hex') || $4::bytea
    END,
    mtime_ms = $5
  WHERE namespace = $1 AND inode = $2
  RETURNING octet_length(bytes) AS size`;

const TRUNCATE = `UPDATE hankweave_files SET
    bytes = CASE WHEN octet_length(bytes) >= $3::bigint THEN substring(bytes FROM 1 FOR $3::int)
      ELSE bytes || decode(repeat('00', ($3::bigint - octet_length(bytes))::int), 'hex') END,
    mtime_ms = $4
  WHERE namespace = $1 AND inode = $2`;

/**
 * A `FileHandle` on a row of the files table, following its inode (so a rename does not redirect
 * it). Every write is one committed statement; a write to a file that was unlinked meanwhile goes
 * nowhere, as with an unlinked inode. Reads see committed content.
 */
export class PgFileHandle {
  readonly fd = nextFd++;
  readonly #table: FilesTable;
  readonly #path: string;
  readonly #inode: string;
  readonly #kind: Entry['kind'];
  readonly #flags: OpenFlags;
  #position = 0;
  #closed = false;

  constructor(table: FilesTable, path: string, entry: Entry, flags: OpenFlags) {
    this.#table = table;
    this.#path = path;
    this.#inode = entry.inode;
    this.#kind = entry.kind;
    this.#flags = flags;
  }

  /** Writes `data` at the current position (at the end in append mode). */
  async writeFile(data: unknown, options?: WriteOptions): Promise<void> {
    await this.#write('write', toBuffer(data, encodingOf(options)), null);
  }

  /** `write(buffer, offset?, length?, position?)` or `write(string, position?, encoding?)`. */
  async write(
    data: unknown,
    offsetOrOptions?: unknown,
    lengthOrEncoding?: unknown,
    position?: number | null,
  ): Promise<{ bytesWritten: number; buffer: unknown }> {
    let bytes: Buffer;
    let at: number | null;
    if (typeof data === 'string') {
      bytes = Buffer.from(data, (lengthOrEncoding as BufferEncoding | undefined) ?? 'utf8');
      at = typeof offsetOrOptions === 'number' ? offsetOrOptions : null;
    } else {
      const whole = toBuffer(data);
      const options =
        typeof offsetOrOptions === 'object' && offsetOrOptions !== null
          ? (offsetOrOptions as { offset?: number; length?: number; position?: number | null })
          : { offset: offsetOrOptions as number, length: lengthOrEncoding as number, position };
      const offset = options.offset ?? 0;
      bytes = whole.subarray(offset, offset + (options.length ?? whole.length - offset));
      at = typeof options.position === 'number' ? options.position : null;
    }
    await this.#write('write', bytes, at);
    return { bytesWritten: bytes.length, buffer: data };
  }

  /** Reads into `buffer` (or a new 16 KiB one) from `position` or the current position. */
  async read(
    bufferOrOptions?: unknown,
    offset?: number,
    length?: number,
    position?: number | null,
  ): Promise<{ bytesRead: number; buffer: Buffer }> {
    const options = ArrayBuffer.isView(bufferOrOptions)
      ? { buffer: bufferOrOptions, offset, length, position }
      : ((bufferOrOptions ?? {}) as {
          buffer?: NodeJS.ArrayBufferView;
          offset?: number;
          length?: number;
          position?: number | null;
        });
    const buffer = toBuffer(options.buffer ?? Buffer.alloc(16_384));
    const start = options.offset ?? 0;
    const wanted = options.length ?? buffer.length - start;
    const from = typeof options.position === 'number' ? options.position : this.#position;
    const chunk = await this.#bytes('read', from, wanted);
    chunk.copy(buffer, start);
    if (typeof options.position !== 'number') this.#position += chunk.length;
    return { bytesRead: chunk.length, buffer };
  }

  /** The whole content, as a Buffer or (with an encoding) a string. */
  async readFile(options?: WriteOptions): Promise<Buffer | string> {
    const bytes = await this.#bytes('read', 0, undefined);
    const encoding = encodingOf(options);
    return encoding === undefined ? bytes : bytes.toString(encoding);
  }

  async stat(): Promise<PgStats> {
    this.#assertOpen('fstat');
    return asFsCall('fstat', this.#path, async () => {
      const [row] = await this.#table.query<Entry>(
        `SELECT ${ENTRY_COLUMNS} FROM hankweave_files WHERE namespace = $1 AND inode = $2`,
        [this.#table.namespace, this.#inode],
      );
      if (row === undefined) throw fsError('ENOENT', 'fstat', this.#path);
      return new PgStats({ ...row, size: Number(row.size) });
    });
  }

  /** Nothing to flush: each write was committed before it resolved. */
  async sync(): Promise<void> {
    this.#assertOpen('fsync');
  }

  async datasync(): Promise<void> {
    this.#assertOpen('fdatasync');
  }

  async truncate(length = 0): Promise<void> {
    this.#assertWritable('ftruncate');
    await asFsCall('ftruncate', this.#path, () =>
      this.#table.query(TRUNCATE, [this.#table.namespace, this.#inode, length, this.#table.now()]),
    );
  }

  /** Sets the modification time (seconds since the epoch, or a Date); atime is not kept. */
  async utimes(_atime: unknown, mtime: number | string | Date): Promise<void> {
    this.#assertOpen('futime');
    const ms = mtime instanceof Date ? mtime.getTime() : Number(mtime) * 1000;
    await asFsCall('futime', this.#path, () =>
      this.#table.query(
        'UPDATE hankweave_files SET mtime_ms = $3 WHERE namespace = $1 AND inode = $2',
        [this.#table.namespace, this.#inode, ms],
      ),
    );
  }

  async chmod(mode: number): Promise<void> {
    this.#assertOpen('fchmod');
    await asFsCall('fchmod', this.#path, () =>
      this.#table.query(
        'UPDATE hankweave_files SET mode = $3 WHERE namespace = $1 AND inode = $2',
        [this.#table.namespace, this.#inode, mode & 0o7777],
      ),
    );
  }

  /** Releases the handle; a second close does nothing. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #write(syscall: string, bytes: Buffer, at: number | null): Promise<void> {
    this.#assertWritable(syscall);
    const position = this.#flags.append ? null : (at ?? this.#position);
    const rows = await asFsCall(syscall, this.#path, () =>
      this.#table.query<{ size: number }>(WRITE_AT, [
        this.#table.namespace,
        this.#inode,
        position,
        bytes,
        this.#table.now(),
      ]),
    );
    if (at === null) {
      this.#position =
        position === null ? Number(rows[0]?.size ?? 0) : this.#position + bytes.length;
    }
  }

  async #bytes(syscall: string, from: number, length: number | undefined): Promise<Buffer> {
    this.#assertOpen(syscall);
    if (this.#kind === 'directory') throw fsError('EISDIR', syscall, this.#path);
    if (!this.#flags.read) throw fsError('EBADF', syscall, this.#path);
    return asFsCall(syscall, this.#path, async () => {
      const [row] = await this.#table.query<{ bytes: Buffer }>(
        `SELECT substring(bytes FROM $3::int + 1 FOR coalesce($4::int, octet_length(bytes))) AS bytes
           FROM hankweave_files WHERE namespace = $1 AND inode = $2`,
        [this.#table.namespace, this.#inode, from, length ?? null],
      );
      return row?.bytes ?? Buffer.alloc(0);
    });
  }

  #assertOpen(syscall: string): void {
    if (this.#closed) throw fsError('EBADF', syscall, this.#path);
  }

  #assertWritable(syscall: string): void {
    this.#assertOpen(syscall);
    if (!this.#flags.write) throw fsError('EBADF', syscall, this.#path);
  }
}
