import type { FailureType } from '@hankweave/types';

/** One rule of {@link classifyApiErrorText}, as data: the README table is checked against it. */
export interface ApiErrorRule {
  /** Short name, used in the README and the tests. */
  name: string;
  /**
   * Case-insensitive needles; any one matching fires the rule. An all-digit needle (`429`) only
   * matches a whole number, so a port such as `127.0.0.1:54001` is not a `400`. `a+b` needs both.
   */
  needles: readonly string[];
  type: FailureType;
  retriable: boolean;
  /** Put before the error text in the failure message; empty keeps the text as it is. */
  prefix: string;
}

/** Reference §4.9, in order: the first rule that matches wins. */
export const API_ERROR_RULES: readonly ApiErrorRule[] = [
  {
    name: 'rate-limit',
    needles: ['rate limit', 'rate_limit', 'rate-limit'],
    type: 'rate-limit',
    retriable: true,
    prefix: '',
  },
  {
    name: 'billing',
    needles: [
      'credit',
      'billing',
      'insufficient',
      'quota',
      'available balance',
      'out of budget',
      'usage limit',
    ],
    type: 'api-error',
    retriable: false,
    prefix: 'API billing/usage error: ',
  },
  {
    name: 'timeout',
    needles: ['timeout', 'timed out'],
    type: 'timeout',
    retriable: true,
    prefix: '',
  },
  {
    name: 'auth',
    needles: ['401', '403', 'authentication', 'unauthorized', 'forbidden', 'api key', 'oauth'],
    type: 'api-error',
    retriable: false,
    prefix: 'API auth error: ',
  },
  {
    name: 'invalid-request',
    needles: ['invalid_request', 'invalid request', 'prompt is too long', '400'],
    type: 'api-error',
    retriable: false,
    prefix: 'API invalid request: ',
  },
  { name: 'bare-429', needles: ['429'], type: 'rate-limit', retriable: true, prefix: '' },
  {
    name: 'transport',
    needles: [
      'socket',
      'econnreset',
      'econnrefused',
      'econnaborted',
      'epipe',
      'etimedout',
      'enotfound',
      'eai_again',
      'unable to connect',
      'fetch failed',
      'connection reset',
      'connection closed',
      'connection error',
      'stream+terminated',
      'network',
    ],
    type: 'api-error',
    retriable: true,
    prefix: 'API transport error: ',
  },
  {
    name: 'server',
    needles: [
      '500',
      '502',
      '503',
      '504',
      '529',
      'overloaded',
      'internal server error',
      'bad gateway',
      'service unavailable',
    ],
    type: 'api-error',
    retriable: true,
    prefix: 'API server error: ',
  },
];

/** Rule 9 when no session was established: the agent never got going, retrying will not help. */
export const NO_SESSION_PREFIX = 'Local setup/process error (no session established): ';
/** Rule 9 once a session exists: an API error we cannot name, worth another try. */
export const IN_SESSION_PREFIX = 'API error in result: ';

function matchesNeedle(lowerText: string, needle: string): boolean {
  if (needle.includes('+')) return needle.split('+').every((part) => lowerText.includes(part));
  if (/^\d+$/.test(needle)) return new RegExp(`(?<!\\d)${needle}(?!\\d)`).test(lowerText);
  return lowerText.includes(needle);
}

/** The first rule whose needles match `text`, or undefined (rule 9). */
export function findApiErrorRule(text: string): ApiErrorRule | undefined {
  const lower = text.toLowerCase();
  return API_ERROR_RULES.find((rule) =>
    rule.needles.some((needle) => matchesNeedle(lower, needle)),
  );
}
