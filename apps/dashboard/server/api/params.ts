import { HttpError } from '../http/http-error.js';

/**
 * An integer query parameter (`text` as `queryOf` read it) within `[min, max]`, `fallback` when
 * absent or empty; a 400 otherwise.
 */
export function integerParam(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      `${name}: ${text.slice(0, 40)} is not an integer from ${min} to ${max}`,
      `Pass ${name}=${fallback}, for example.`,
    );
  return value;
}
