import type { FailureReason } from '@hankweave/types';
import { expect, it } from 'vitest';
import { type ConformanceContext, runToEnd, withRig } from '../conformance-helpers.js';
import type { ConformanceFailure } from '../conformance-script.js';

const CASES: [string, ConformanceFailure, Pick<FailureReason, 'type' | 'retriable'>][] = [
  [
    'a 429 as a retriable rate limit',
    { kind: 'rate-limit' },
    { type: 'rate-limit', retriable: true },
  ],
  [
    'a 500 as a retriable API error',
    { kind: 'server-error' },
    { type: 'api-error', retriable: true },
  ],
  [
    'a 400 as an API error that is not retried',
    {
      kind: 'http-error',
      status: 400,
      type: 'invalid_request_error',
      message: 'Scripted bad request',
    },
    { type: 'api-error', retriable: false },
  ],
];

/** The model's API errors, classified as reference §4.9 says. */
export function apiErrorCases(context: ConformanceContext): void {
  for (const [title, fail, expected] of CASES) {
    it(
      `classifies ${title}`,
      async () => {
        await withRig(context, { conversations: [{ turns: [{ fail }] }] }, async ({ start }) => {
          const { outcome } = await runToEnd((await start()).session);
          expect(outcome).toMatchObject({
            failureReason: expected,
            contextExceeded: false,
            killed: false,
            timedOut: false,
          });
          expect(outcome.exitCode).not.toBe(0);
          expect(outcome.errorResultText).toEqual(expect.any(String));
        });
      },
      context.options.caseTimeoutMs,
    );
  }
}
