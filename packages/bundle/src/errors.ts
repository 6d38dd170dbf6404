import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link BundleError} can carry. */
export const BUNDLE_ERROR_CODES = [
  /** The file is not a bundle: not zstd, not tar, no hank.lock first, too large. */
  'BUNDLE_INVALID',
  /** hank.lock is not a valid lock (schema, unsafe paths, a bundleHash that is not its files'). */
  'BUNDLE_LOCK_INVALID',
  /** A member differs from hank.lock: changed bytes or mode, missing, or extra. */
  'BUNDLE_TAMPERED',
  /** A tar entry that extraction refuses: absolute, `..`, a link, a device, a duplicate. */
  'BUNDLE_UNSAFE_ENTRY',
  /** The lock's `runtime.min` is newer than this runtime. */
  'BUNDLE_RUNTIME_TOO_OLD',
  /** A hank directory pinned by hank.lock no longer matches it. */
  'BUNDLE_DRIFT',
  /** `pack` found portability errors (see the findings in `details`). */
  'BUNDLE_NOT_PORTABLE',
  /** Reading, writing or extracting failed. */
  'BUNDLE_IO',
] as const;

/** One of {@link BUNDLE_ERROR_CODES}. */
export type BundleErrorCode = (typeof BUNDLE_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/bundle`. `details.file` names the file at fault when there
 * is one (a tampered member, an unsafe entry, a drifted file). Match on `code`.
 */
export class BundleError extends defineErrorClass('BundleError', BUNDLE_ERROR_CODES) {}
