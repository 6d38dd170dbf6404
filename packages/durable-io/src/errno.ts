/** The `code` of a Node system error (`ENOENT`, `EEXIST`, ...), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` is a system error with one of `codes`. */
export function hasErrno(error: unknown, ...codes: readonly string[]): boolean {
  const code = errnoCode(error);
  return code !== undefined && codes.includes(code);
}

/** True for "no such file" and "a parent is not a directory": the path does not exist. */
export function isMissing(error: unknown): boolean {
  return hasErrno(error, 'ENOENT', 'ENOTDIR');
}

/** Awaits `operation`, treating a missing path as success (`rm -f` semantics). */
export async function ignoreMissing<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Codes meaning "this file system cannot fsync a directory" (Windows, some FUSE mounts). */
export const NO_DIRECTORY_SYNC_CODES: readonly string[] = [
  'EISDIR',
  'EINVAL',
  'ENOTSUP',
  'EOPNOTSUPP',
  'EPERM',
  'EBADF',
];

/** Codes meaning "no hard links here" (FAT, some network mounts, across devices). */
export const NO_HARD_LINK_CODES: readonly string[] = [
  'EPERM',
  'ENOTSUP',
  'EOPNOTSUPP',
  'ENOSYS',
  'EXDEV',
  'EMLINK',
  'EINVAL',
];
