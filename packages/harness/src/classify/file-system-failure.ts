import type { FailureReason } from '@hankweave/types';

/**
 * A failure of the local file system, not of the API: the agent log could not be opened or
 * written. `errno` and `path` say which call failed where; both are absent from an older message.
 */
export type FileSystemFailure = FailureReason & {
  type: 'unknown';
  message: string;
  errno?: string;
  path?: string;
};

/** What each errno means, in words that fit "<words> (<ERRNO>) writing <path>". */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'The disk is full',
  EDQUOT: 'The disk quota is exceeded',
  EROFS: 'The file system is read-only',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EIO: 'The disk failed (I/O error)',
  EMFILE: 'Too many open files',
  ENFILE: 'Too many open files in the system',
  ENOENT: 'A directory is missing',
  ENOTDIR: 'A part of the path is not a directory',
  EISDIR: 'The path is a directory',
};

/**
 * Errnos that a retry may outlive on its own (another process closes its files). A full disk,
 * a quota, a read-only mount or a permission stays as it is until someone acts: not retriable.
 */
const TRANSIENT_ERRNOS = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EINTR']);

/** `Cannot write the agent log <path> (<ERRNO>: <text>)`, as `AgentLogWriter` words it. */
const AGENT_LOG_FAILURE = /^Cannot (open|write) the agent log (.+?)(?: \((E[A-Z0-9]+)\b[^)]*\))?$/s;

/**
 * Recognises a harness crash caused by the file system (the agent log could not be opened or
 * written) and says it as such: `The disk is full (ENOSPC) writing <path>`, type `unknown`,
 * retriable only for errnos that pass on their own. Undefined for any other text, which is
 * classified as an API error.
 */
export function classifyFileSystemFailure(text: string): FileSystemFailure | undefined {
  const match = AGENT_LOG_FAILURE.exec(text.trim());
  if (!match) return undefined;
  const [, verb, path, errno] = match;
  if (!errno) {
    return { type: 'unknown', retriable: false, message: text.trim(), ...(path ? { path } : {}) };
  }
  const words = ERRNO_WORDS[errno] ?? 'The file system failed';
  return {
    type: 'unknown',
    retriable: TRANSIENT_ERRNOS.has(errno),
    message: `${words} (${errno}) ${verb === 'open' ? 'opening' : 'writing'} ${path}`,
    errno,
    ...(path ? { path } : {}),
  };
}
