import type { ServerResponse } from 'node:http';
import { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';
import { answerFromScript, answerScriptError, halfOf, writeAnswer } from './answer-from-script.js';
import {
  generateContentRequestSchema,
  generateContentTarget,
  generateContentToMessagesView,
} from './generate-content-request.js';
import { sendGoogleScriptError, serveGoogleFailure } from './google-failures.js';
import {
  generateContentChunks,
  partialGenerateContentChunk,
  toGenerateContentResponse,
} from './render-generate-content.js';
import type { TurnSelector } from './select-turn.js';

/**
 * Serves one `POST …/models/{model}:streamGenerateContent` or `:generateContent` (the Gemini
 * API) from the script, like the other APIs: the same turn selection on the request's Messages
 * view, Google's error bodies, and the answer as `model` content parts (SSE chunks for
 * `streamGenerateContent`, one JSON body otherwise). Fills in `entry.match` or `entry.error`.
 */
export function handleGenerateContent(
  res: ServerResponse,
  entry: RecordedRequest,
  context: { selector: TurnSelector },
): void {
  const target = generateContentTarget(entry.path.split('?')[0] ?? entry.path);
  const parsed = generateContentRequestSchema.safeParse(entry.body);
  if (target === undefined || !parsed.success) {
    const error = new ScriptedModelError(
      'SCRIPTED_MODEL_INVALID_REQUEST',
      'the body is not a generateContent request (contents are required)',
      { cause: parsed.error },
    );
    answerScriptError(res, entry, error, sendGoogleScriptError);
    return;
  }
  const meta = { responseId: `scripted-${String(entry.seq).padStart(4, '0')}` };
  answerFromScript(res, entry, context.selector, {
    view: generateContentToMessagesView(parsed.data, target),
    stream: target.stream,
    answerId: meta.responseId,
    toolIdStart: 'call_',
    sendScriptError: sendGoogleScriptError,
    sendMessage(res, message, stream) {
      writeAnswer(res, stream, {
        json: () => toGenerateContentResponse(message, meta),
        chunks: () => generateContentChunks(message, meta),
        contentType: 'application/json; charset=UTF-8',
      });
    },
    serveFailure(res, failure, message, stream) {
      // A mid-stream cut sends the first chunk, or half the JSON.
      const partial = stream
        ? partialGenerateContentChunk(message, meta)
        : halfOf(JSON.stringify(toGenerateContentResponse(message, meta)));
      serveGoogleFailure(res, failure, partial, stream);
    },
  });
}
