import type { FailureReason } from '@hankweave/types';
import { classifyApiErrorText } from './classify-api-error-text.js';
import { classifyFileSystemFailure } from './file-system-failure.js';

/** The message of a synthetic API timeout (a `<synthetic>` assistant message). */
export const SYNTHETIC_TIMEOUT_TEXT = 'API Error: Request timed out.';

/** What is known about an attempt when it ends: the inputs of {@link deriveFailureReason}. */
export interface FailureEvidence {
  /** The text of the first error result (absent when a success result came first). */
  errorResultText?: string;
  /** A `<synthetic>` `API Error: Request timed out.` message was seen. */
  syntheticTimeout?: boolean;
  /** The message of a harness crash (log not writable, spawn error after start, …). */
  crashMessage?: string;
  /** Whether the agent reported a session id. */
  sessionEstablished: boolean;
  /** A `success` result without `is_error` arrived: later errors are ignored (§4.5). */
  successResult?: boolean;
  /** The agent's exit code (null when ended by a signal). */
  exitCode: number | null;
  /** Stopped on purpose (`kill()`, abort, budget): no reason is made up. */
  killed?: boolean;
  /** The context was exceeded: the runtime decides, no reason is made up. */
  contextExceeded?: boolean;
}

/**
 * `{type: 'api-error'}`, retriable iff a session was established, for an attempt that ended with
 * no result and no other evidence (reference §4.9).
 */
export function synthesizeMissingFailureReason(evidence: {
  exitCode: number | null;
  sessionEstablished: boolean;
}): FailureReason {
  const code = String(evidence.exitCode);
  return evidence.sessionEstablished
    ? {
        type: 'api-error',
        retriable: true,
        message: `Codon process exited without a result message (exit code ${code})`,
      }
    : {
        type: 'api-error',
        retriable: false,
        message: `Codon process exited before establishing a session (exit code ${code})`,
      };
}

/**
 * Why an attempt failed, first that applies: a file-system crash (the agent log could not be
 * written: the log is the source of truth, so nothing after it can be trusted, and a full disk
 * explains whatever the agent said next); then, as reference §4.9 orders them, the error result's
 * text, a synthetic timeout, any other harness crash; then nothing for a success, a kill or an
 * exceeded context; else a synthesized reason. Undefined means "not a failure".
 */
export function deriveFailureReason(evidence: FailureEvidence): FailureReason | undefined {
  const options = { sessionEstablished: evidence.sessionEstablished };
  const fileSystem =
    evidence.crashMessage !== undefined
      ? classifyFileSystemFailure(evidence.crashMessage)
      : undefined;
  if (fileSystem) return fileSystem;
  if (evidence.errorResultText !== undefined) {
    return classifyApiErrorText(evidence.errorResultText, options);
  }
  if (evidence.syntheticTimeout) {
    return { type: 'timeout', retriable: true, message: SYNTHETIC_TIMEOUT_TEXT };
  }
  if (evidence.crashMessage !== undefined) {
    return classifyApiErrorText(evidence.crashMessage, options);
  }
  if (evidence.successResult || evidence.killed || evidence.contextExceeded) return undefined;
  return synthesizeMissingFailureReason(evidence);
}
