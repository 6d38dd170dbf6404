import { constants } from 'node:fs';
import type { Entry } from './files-table.js';
import { nameOf, parentOf } from './fs-paths.js';

const BLOCK = 4096;

/**
 * The type tests `fs.Stats` and `fs.Dirent` share. The table holds files and directories only:
 * no links, devices, FIFOs or sockets.
 */
abstract class EntryType {
  readonly #kind: Entry['kind'];

  protected constructor(kind: Entry['kind']) {
    this.#kind = kind;
  }

  isFile(): boolean {
    return this.#kind === 'file';
  }
  isDirectory(): boolean {
    return this.#kind === 'directory';
  }
  isSymbolicLink(): boolean {
    return false;
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
}

/** `fs.Stats` of an entry: what `stat()` and a handle's `stat()` return. */
export class PgStats extends EntryType {
  readonly dev = 0;
  readonly ino: number;
  readonly mode: number;
  readonly nlink = 1;
  readonly uid: number;
  readonly gid: number;
  readonly rdev = 0;
  readonly size: number;
  readonly blksize = BLOCK;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;

  constructor(entry: Entry) {
    super(entry.kind);
    this.ino = Number(entry.inode);
    this.mode = (entry.kind === 'directory' ? constants.S_IFDIR : constants.S_IFREG) | entry.mode;
    // Files belong to whoever reads them: there is no owner in the table.
    this.uid = process.getuid?.() ?? 0;
    this.gid = process.getgid?.() ?? 0;
    this.size = entry.size;
    this.blocks = Math.ceil(entry.size / 512);
    this.atimeMs = this.mtimeMs = this.ctimeMs = this.birthtimeMs = entry.mtimeMs;
    this.atime = this.mtime = this.ctime = this.birthtime = new Date(entry.mtimeMs);
  }
}

/** `fs.Dirent` of an entry: what `readdir(dir, { withFileTypes: true })` returns. */
export class PgDirent extends EntryType {
  readonly name: string;
  readonly parentPath: string;
  /** Deprecated alias of `parentPath` that Node 20 still sets. */
  readonly path: string;

  constructor(path: string, kind: Entry['kind']) {
    super(kind);
    this.name = nameOf(path);
    this.parentPath = this.path = parentOf(path);
  }
}
