import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ScriptedModelError } from './errors.js';
import { type Script, scriptSchema } from './script-schema.js';

/**
 * Validates a script object (as written by hand or read from JSON) and applies its defaults.
 *
 * @throws {ScriptedModelError} SCRIPTED_MODEL_INVALID_SCRIPT when it does not match
 * {@link scriptSchema}; the `ZodError` is the cause and the issues are in `details.issues`.
 */
export function parseScript(value: unknown): Script {
  const result = scriptSchema.safeParse(value);
  if (result.success) return result.data;
  throw new ScriptedModelError(
    'SCRIPTED_MODEL_INVALID_SCRIPT',
    `invalid script:\n${z.prettifyError(result.error)}`,
    {
      cause: result.error,
      details: { issues: result.error.issues.map(({ path, message }) => ({ path, message })) },
    },
  );
}

/**
 * Reads a JSON script file and validates it with {@link parseScript}.
 *
 * @throws {ScriptedModelError} SCRIPTED_MODEL_SCRIPT_UNREADABLE when the file cannot be read or
 * is not JSON; SCRIPTED_MODEL_INVALID_SCRIPT (`invalid script <path>: ...`, `details.path`) when it
 * does not match the schema.
 */
export async function loadScript(path: string): Promise<Script> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new ScriptedModelError(
      'SCRIPTED_MODEL_SCRIPT_UNREADABLE',
      `cannot read script ${path}: ${(cause as Error).message}`,
      { cause, details: { path } },
    );
  }
  try {
    return parseScript(value);
  } catch (error) {
    // The same error, naming the file it came from.
    if (!ScriptedModelError.is(error, 'SCRIPTED_MODEL_INVALID_SCRIPT')) throw error;
    throw new ScriptedModelError(
      'SCRIPTED_MODEL_INVALID_SCRIPT',
      error.message.replace(/^invalid script:/, `invalid script ${path}:`),
      { cause: error.cause, details: { ...error.details, path } },
    );
  }
}
