import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link SentinelError} can carry; the README's Errors table lists them all. */
export const SENTINEL_ERROR_CODES = [
  'SENTINEL_CONFIG_UNREADABLE',
  'SENTINEL_CONFIG_INVALID',
  'SENTINEL_CONDITION_PATH_INVALID',
  'SENTINEL_DUPLICATE_ID',
  'SENTINEL_PROMPT_UNREADABLE',
  'SENTINEL_SCHEMA_INVALID',
  'SENTINEL_OUTPUT_PATH_INVALID',
  'SENTINEL_PROVIDER_UNSUPPORTED',
  'SENTINEL_PROVIDER_KEY_MISSING',
  'SENTINEL_TEMPLATE_SYNTAX',
  'SENTINEL_TEMPLATE_RENDER_FAILED',
  'SENTINEL_OUTPUT_INVALID',
] as const;

/** One of {@link SENTINEL_ERROR_CODES}. */
export type SentinelErrorCode = (typeof SENTINEL_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/sentinels`. Load failures carry it as the reason of a failed
 * entry; run-time failures become `sentinel.error` events instead of being thrown at the runtime.
 * `SentinelError.is(value, code?)` recognises one from any copy of this package.
 */
export class SentinelError extends defineErrorClass('SentinelError', SENTINEL_ERROR_CODES) {}
