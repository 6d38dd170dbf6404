import type { FailureType } from '@hankweave/types';
import { findApiErrorRule, IN_SESSION_PREFIX, NO_SESSION_PREFIX } from './api-error-rules.js';
import { parseRetryAfterMs } from './parse-retry-after.js';

/** A classified error: what kind, whether retrying may help, and how long to wait. */
// A type alias, not an interface, so that it is assignable to the loose `FailureReason`.
export type ApiErrorClassification = {
  type: FailureType;
  retriable: boolean;
  message: string;
  retryAfterMs?: number;
};

/**
 * Classifies an agent error text (reference §4.9): case-insensitive, the first rule of
 * `API_ERROR_RULES` that matches wins; no match is rule 9, retriable only once a session exists.
 * `retryAfterMs` is added whenever the text names a wait, whatever the rule.
 */
export function classifyApiErrorText(
  text: string,
  options: { sessionEstablished: boolean },
): ApiErrorClassification {
  const rule = findApiErrorRule(text);
  const classification: ApiErrorClassification = rule
    ? { type: rule.type, retriable: rule.retriable, message: `${rule.prefix}${text}` }
    : options.sessionEstablished
      ? { type: 'api-error', retriable: true, message: `${IN_SESSION_PREFIX}${text}` }
      : { type: 'api-error', retriable: false, message: `${NO_SESSION_PREFIX}${text}` };
  const retryAfterMs = parseRetryAfterMs(text);
  if (retryAfterMs !== undefined) classification.retryAfterMs = retryAfterMs;
  return classification;
}
