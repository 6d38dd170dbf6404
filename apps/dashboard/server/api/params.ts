import { HttpError } from '../http/http-error.js';

/** An integer query parameter within `[min, max]`, `fallback` when absent; a 400 otherwise. */
export function integerParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = params.get(name);
  if (text === null || text === '') return fallback;
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

/** A comma-separated list parameter (`types=a,b`), repeated or not; empty entries dropped. */
export function listParam(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}
