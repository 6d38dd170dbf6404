export {
  type BundleMember,
  MAX_UNPACKED_BYTES,
  readBundleArchive,
  writeBundleArchive,
} from './archive.js';
export { canonicalJson } from './canonical-json.js';
export { BUNDLE_ERROR_CODES, BundleError, type BundleErrorCode } from './errors.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  type HankFile,
  type HankFiles,
  type PackFinding,
} from './hank-files.js';
export {
  computeBundleHash,
  type HankLock,
  hankLockSchema,
  LOCK_FILE,
  LOCK_FORMAT_VERSION,
  type LockFileEntry,
  serializeLock,
} from './lock.js';
export {
  defaultBundleCacheDir,
  isBundlePath,
  type OpenBundleOptions,
  type OpenedBundle,
  openBundle,
} from './open-bundle.js';
export {
  checkHank,
  type PackedHank,
  type PackOptions,
  packHank,
  RUNTIME_COMPAT_VERSION,
} from './pack.js';
export { type PinDrift, pinDrift, verifyPinnedHank } from './pin.js';
export { parseLock, treeDifference } from './verify.js';
