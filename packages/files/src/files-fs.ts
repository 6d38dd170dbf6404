import * as nodeFs from 'node:fs';

/** The directory entry shape `readdirSync(path, { withFileTypes: true })` returns. */
export interface FilesDirent {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The subset of `fs.BigIntStats` the walks and scans read. */
export interface FilesStats {
  readonly ino: bigint;
  readonly mode: bigint;
  readonly size: bigint;
  readonly mtimeMs: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The synchronous `node:fs` subset every walk goes through (isomorphic-git's injected-fs idea).
 * Synchronous on purpose: a directory walk with `readdirSync` is several times faster than the
 * promise API, and a scan is short enough not to starve the event loop. Tests pass a wrapper that
 * fails chosen calls, which is how unreadable directories are simulated when running as root.
 */
export interface FilesFs {
  readdirSync(path: string, options: { withFileTypes: true }): FilesDirent[];
  lstatSync(path: string, options: { bigint: true }): FilesStats;
  statSync(path: string, options: { bigint: true }): FilesStats;
  readFileSync(path: string): Uint8Array;
}

/** The real file system. */
export const nodeFilesFs: FilesFs = {
  readdirSync: (path, options) => nodeFs.readdirSync(path, options),
  lstatSync: (path, options) => nodeFs.lstatSync(path, options),
  statSync: (path, options) => nodeFs.statSync(path, options),
  readFileSync: (path) => nodeFs.readFileSync(path),
};
