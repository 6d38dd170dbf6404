import { defineErrorClass } from '@hankweave/types';

/**
 * Every code a {@link RuntimeError} can carry; the README's Errors table lists them all. Only
 * `RUNTIME_INTERNAL` means a bug in hankweave; every other code is something the caller can act on.
 */
export const RUNTIME_ERROR_CODES = [
  'RUNTIME_INVALID_HANK',
  'RUNTIME_HANK_NOT_FOUND',
  'RUNTIME_DATA_NOT_FOUND',
  'RUNTIME_RESERVED_LOCATION',
  'RUNTIME_EXECUTION_EXISTS',
  'RUNTIME_EXECUTION_NOT_EMPTY',
  'RUNTIME_DATA_MISMATCH',
  'RUNTIME_NESTED_EXECUTION',
  'RUNTIME_PROMPT_UNREADABLE',
  'RUNTIME_BAD_COMMAND',
  'RUNTIME_CODON_RUNNING',
  'RUNTIME_NO_CODON_RUNNING',
  'RUNTIME_NO_MORE_CODONS',
  'RUNTIME_UNKNOWN_CODON',
  'RUNTIME_ROLLBACK_IN_PROGRESS',
  'RUNTIME_NO_CHECKPOINT',
  'RUNTIME_SHUTTING_DOWN',
  'RUNTIME_NOT_STARTED',
  /** `start()` was called a second time on the same runtime. */
  'RUNTIME_ALREADY_STARTED',
  /** An option of `createRuntime` is not usable; `details.option`. */
  'RUNTIME_INVALID_OPTION',
  /**
   * No agent harness: `@hankweave/claude-code` is not installed and none was passed, or a codon's
   * model needs an adapter that is not installed (non-Anthropic models run on Pi).
   */
  'RUNTIME_HARNESS_UNAVAILABLE',
  /**
   * Preflight: a codon's provider has no credentials (no API key or token, no `claude login`);
   * `details.codons`, `details.looked` (the login files looked for).
   */
  'RUNTIME_NO_CREDENTIALS',
  /**
   * Preflight: the API (or its proxy) did not answer before the execution was created;
   * `details.url`, `target` (host:port), `error` (ENOTFOUND, ECONNREFUSED, TIMEOUT, ...).
   */
  'RUNTIME_API_UNREACHABLE',
  /**
   * No execution has the data's hash, but one was created for the same data path: the data
   * changed since. `details.executionDir`, `createdAt`, `dataPath`, `changed` (names, when known).
   */
  'RUNTIME_DATA_CHANGED',
  /**
   * `sandbox: 'require'` (`--require-sandbox`) and no OS sandbox works here: nothing was started.
   * `details.reason`, `details.hint` (what to install).
   */
  'RUNTIME_SANDBOX_UNAVAILABLE',
  /**
   * A file operation of the runtime would go through a symbolic link (a rig copy, a rollback's rig
   * cleanup, an output copy): refused. `details.link` names the link, `details.path` the target.
   */
  'RUNTIME_UNSAFE_PATH',
  /**
   * The hank is valid but uses what this runtime does not run yet (a parallel block): nothing was
   * started. `details.feature`, `details.items` (the ids of the items using it).
   */
  'RUNTIME_UNSUPPORTED_FEATURE',
  /** A bug in hankweave: please report it. */
  'RUNTIME_INTERNAL',
] as const;

/** One of {@link RUNTIME_ERROR_CODES}. */
export type RuntimeErrorCode = (typeof RUNTIME_ERROR_CODES)[number];

/** Every error the runtime raises itself; `details` name the file, field or codon involved. */
export class RuntimeError extends defineErrorClass('RuntimeError', RUNTIME_ERROR_CODES) {}
