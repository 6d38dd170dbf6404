import { defineErrorClass } from '@hankweave/types';

/** Every code a {@link ScriptedModelError} can carry. */
export const SCRIPTED_MODEL_ERROR_CODES = [
  'SCRIPTED_MODEL_INVALID_SCRIPT',
  'SCRIPTED_MODEL_SCRIPT_UNREADABLE',
  'SCRIPTED_MODEL_INVALID_REQUEST',
  'SCRIPTED_MODEL_NO_CONVERSATION',
  'SCRIPTED_MODEL_NO_TURN',
  'SCRIPTED_MODEL_LISTEN_FAILED',
] as const;

/** One of {@link SCRIPTED_MODEL_ERROR_CODES}. */
export type ScriptedModelErrorCode = (typeof SCRIPTED_MODEL_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/scripted-model`.
 *
 * Thrown by {@link parseScript}, {@link loadScript} and {@link startScriptedModel}; the request-time
 * codes (`SCRIPTED_MODEL_NO_CONVERSATION`, `SCRIPTED_MODEL_NO_TURN`,
 * `SCRIPTED_MODEL_INVALID_REQUEST`) are never thrown: they are recorded on the request log entry
 * and sent to the client as an HTTP 400 whose message starts with the code.
 */
export class ScriptedModelError extends defineErrorClass(
  'ScriptedModelError',
  SCRIPTED_MODEL_ERROR_CODES,
) {}
