import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link RemoteError} can carry. */
export const REMOTE_ERROR_CODES = [
  /** The text is not `<url>[#ref][:subdir]` (or its ref or subdir is unsafe). */
  'REMOTE_INVALID_URL',
  /** An ssh URL (`git@host:path`, `ssh://`): isomorphic-git speaks only HTTP(S). */
  'REMOTE_SSH_UNSUPPORTED',
  /** The remote could not be reached and nothing usable is cached. */
  'REMOTE_UNREACHABLE',
  /** The server answered that there is no repository there (HTTP 404). */
  'REMOTE_NOT_FOUND',
  /** The server wants credentials, or refused the ones given (HTTP 401/403). */
  'REMOTE_AUTH_FAILED',
  /** No branch, tag or commit of that name in the repository. */
  'REMOTE_REF_NOT_FOUND',
  /** The commit's tree holds what a checkout must not write (a link out of it, a bad name). */
  'REMOTE_UNSAFE_TREE',
  /** The subdirectory is not in the commit's tree. */
  'REMOTE_SUBDIR_NOT_FOUND',
  /** Another process held the repository's cache lock for too long. */
  'REMOTE_LOCK_TIMEOUT',
  /** A `HANKWEAVE_REMOTE_*` variable is set to something it cannot mean. */
  'REMOTE_INVALID_SETTING',
] as const;

/** One of {@link REMOTE_ERROR_CODES}. */
export type RemoteErrorCode = (typeof REMOTE_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/remote`. Match on `code`, never on the message. `details`
 * carries the URL without credentials (`url`), never the URL as given.
 */
export class RemoteError extends defineErrorClass('RemoteError', REMOTE_ERROR_CODES) {}
