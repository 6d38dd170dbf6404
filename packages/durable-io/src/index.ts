// Public surface of @hankweave/durable-io: named exports only.

export {
  type AtomicWriteOptions,
  createDirectory,
  fsyncDescriptor,
  isAtomicTempName,
  syncDirectory,
  syncDirectorySync,
  syncPath,
  writeFileAtomic,
  writeFileAtomicSync,
} from './atomic-write.js';
export {
  errnoCode,
  hasErrno,
  ignoreMissing,
  isMissing,
  NO_DIRECTORY_SYNC_CODES,
  NO_HARD_LINK_CODES,
} from './errno.js';
export {
  ASYNC_FS_METHODS,
  type AsyncFsMethod,
  type Fs,
  type FsFileHandle,
  isNodeFs,
  nodeFs,
  SYNC_FS_METHODS,
  type SyncFsMethod,
} from './fs.js';
export { lastLineStart } from './last-line.js';
export { moveAsideAsCorrupt } from './move-aside.js';
export { Mutex } from './mutex.js';
export { isInside, normalizeRelative, relativeInside } from './paths.js';
export {
  FILE_TOO_LARGE_CODE,
  NOT_REGULAR_FILE_CODE,
  type ReadRegularFileOptions,
  readRegularFile,
  readRegularFileSync,
  readRegularTextFile,
} from './regular-file.js';
export { sleep } from './sleep.js';
export { type FindSymlinkOptions, findSymlinkOnPath } from './symlink-guard.js';
