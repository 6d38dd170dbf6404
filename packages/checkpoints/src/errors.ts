import { errnoCode } from '@hankweave/durable-io';
import { defineErrorClass } from '@hankweave/types';

/**
 * Every code a {@link CheckpointError} can carry. The list is part of the public contract (the
 * runtime maps codes to wire errors), so it is snapshot-tested; add codes, never rename them.
 */
export const CHECKPOINT_ERROR_CODES = [
  /** A sha, ref or path does not exist in the shadow repository. */
  'CHECKPOINT_NOT_FOUND',
  /** A partial sha matches more than one checkpoint; `details.candidates` lists them. */
  'CHECKPOINT_AMBIGUOUS',
  /** Bad arguments: unknown type, empty ids, a run id git cannot use in a branch name, a bad sha. */
  'CHECKPOINT_INVALID_INPUT',
  /** A tracked path is empty, absolute, has a NUL byte or `.`, `..` or empty segments. */
  'CHECKPOINT_INVALID_PATH',
  /** The repository cannot be read: HEAD or an object is missing, truncated or malformed. */
  'CHECKPOINT_REPO_CORRUPT',
  /** Another writer holds a git lock file (`*.lock`) right now. */
  'CHECKPOINT_LOCKED',
  /** Reading or writing the work tree or the repository failed (disk full, permissions...). */
  'CHECKPOINT_STORAGE_FAILED',
  /** The engine was used after `close()`. */
  'CHECKPOINT_CLOSED',
] as const;

/** One of {@link CHECKPOINT_ERROR_CODES}. */
export type CheckpointErrorCode = (typeof CHECKPOINT_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/checkpoints`. Branch on `code`, never on the message:
 * `if (CheckpointError.is(e, 'CHECKPOINT_NOT_FOUND'))`.
 */
export class CheckpointError extends defineErrorClass('CheckpointError', CHECKPOINT_ERROR_CODES) {}

/** Wraps an unknown failure from the file system as `CHECKPOINT_STORAGE_FAILED`, keeping ours. */
export function toStorageError(error: unknown, message: string, path?: string): CheckpointError {
  if (CheckpointError.is(error)) return error;
  const code = errnoCode(error);
  // The errno goes into the message too: "the disk is full" must reach the user as such.
  const said = code === undefined ? message : `${message} (${code}: ${(error as Error).message})`;
  return new CheckpointError('CHECKPOINT_STORAGE_FAILED', said, {
    cause: error,
    details: {
      ...(path === undefined ? {} : { path }),
      ...(code === undefined ? {} : { errno: code }),
    },
  });
}
