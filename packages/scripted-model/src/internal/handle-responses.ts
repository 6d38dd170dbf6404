import type { ServerResponse } from 'node:http';
import { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';
import { answerFromScript, answerScriptError, halfOf, writeAnswer } from './answer-from-script.js';
import { sendOpenAiScriptError, serveOpenAiFailure } from './openai-failures.js';
import { toResponse } from './render-response.js';
import { responsesRequestSchema, responsesToMessagesView } from './responses-request.js';
import { partialResponseEvents, type ResponseMeta, responseEvents } from './responses-sse.js';
import type { TurnSelector } from './select-turn.js';

/**
 * Serves one `POST /v1/responses` (OpenAI's Responses API) from the script, like Chat
 * Completions: the same turn selection on the request's Messages view, OpenAI's error bodies,
 * and the answer as Responses output items (streamed as its typed events, or one JSON body).
 * Fills in `entry.match` or `entry.error`.
 */
export function handleResponses(
  res: ServerResponse,
  entry: RecordedRequest,
  context: { selector: TurnSelector },
): void {
  const parsed = responsesRequestSchema.safeParse(entry.body);
  if (!parsed.success) {
    const error = new ScriptedModelError(
      'SCRIPTED_MODEL_INVALID_REQUEST',
      'the body is not a Responses API request (model and input are required)',
      { cause: parsed.error },
    );
    answerScriptError(res, entry, error, sendOpenAiScriptError);
    return;
  }
  const request = parsed.data;
  const meta: ResponseMeta = {
    id: `resp_scripted_${String(entry.seq).padStart(4, '0')}`,
    created: Math.floor(Date.parse(entry.receivedAt) / 1000),
  };
  answerFromScript(res, entry, context.selector, {
    view: responsesToMessagesView(request),
    stream: request.stream === true,
    answerId: meta.id,
    toolIdStart: 'call_',
    sendScriptError: sendOpenAiScriptError,
    sendMessage(res, message, stream) {
      writeAnswer(res, stream, {
        json: () => toResponse(message, meta),
        chunks: () => responseEvents(message, meta),
      });
    },
    serveFailure(res, failure, message, stream) {
      const partial = stream
        ? partialResponseEvents(message, meta).join('')
        : halfOf(JSON.stringify(toResponse(message, meta)));
      serveOpenAiFailure(res, failure, partial, { stream, api: 'responses' });
    },
  });
}
