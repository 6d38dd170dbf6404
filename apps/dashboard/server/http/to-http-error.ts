import { HankweaveError } from '@hankweave/types';
import { HttpError } from './http-error.js';

/** Statuses of the coded errors the packages throw, by what the code says happened. */
function statusOfCode(code: string): number {
  if (code.endsWith('_NOT_FOUND')) return 404;
  if (
    code === 'JOURNAL_BAD_CURSOR' ||
    code.endsWith('_INVALID_INPUT') ||
    code.endsWith('_AMBIGUOUS')
  )
    return 400;
  if (code.endsWith('_INTERNAL')) return 500;
  // Locked, running, refused in this phase: the request was fine, the execution is not ready.
  return 409;
}

/**
 * Any error as the answer it becomes: an `HttpError` as it is, a package's coded error by its
 * code (with its `details.hint` when it has one: every `InspectionError` does), anything else a
 * 500.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (HankweaveError.is(error)) {
    // `@hankweave/inspection`'s errors (and any other that has one) carry what to do next.
    const { hint } = error.details;
    return HttpError.passing(
      statusOfCode(error.code),
      error.code,
      error.message,
      typeof hint === 'string' ? hint : undefined,
    );
  }
  return new HttpError(
    500,
    'UI_INTERNAL',
    error instanceof Error ? error.message : String(error),
    'This is a bug in hankweave ui; the terminal running it shows more with HANKWEAVE_DEBUG=1.',
  );
}
