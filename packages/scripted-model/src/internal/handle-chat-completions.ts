import type { ServerResponse } from 'node:http';
import { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';
import { answerFromScript, answerScriptError, halfOf, writeAnswer } from './answer-from-script.js';
import { chatRequestSchema, includesUsage, toMessagesView } from './chat-request.js';
import { type ChunkMeta, chatChunks, partialChatChunks } from './chat-sse.js';
import { sendOpenAiScriptError, serveOpenAiFailure } from './openai-failures.js';
import { toChatCompletion } from './render-chat-completion.js';
import type { TurnSelector } from './select-turn.js';

/**
 * Serves one `POST /v1/chat/completions` from the same script as the Messages API: the request is
 * viewed as a Messages request, so it lands on the same conversation and turn, and the turn is
 * rendered with the tool names the request offers. Fills in `entry.match` or `entry.error`.
 */
export function handleChatCompletions(
  res: ServerResponse,
  entry: RecordedRequest,
  context: { selector: TurnSelector },
): void {
  const parsed = chatRequestSchema.safeParse(entry.body);
  if (!parsed.success) {
    const error = new ScriptedModelError(
      'SCRIPTED_MODEL_INVALID_REQUEST',
      'the body is not a Chat Completions request (model and messages are required)',
      { cause: parsed.error },
    );
    answerScriptError(res, entry, error, sendOpenAiScriptError);
    return;
  }
  const request = parsed.data;
  const meta: ChunkMeta = {
    id: `chatcmpl-scripted-${String(entry.seq).padStart(4, '0')}`,
    created: Math.floor(Date.parse(entry.receivedAt) / 1000),
    includeUsage: includesUsage(request),
  };
  answerFromScript(res, entry, context.selector, {
    view: toMessagesView(request),
    stream: request.stream === true,
    answerId: meta.id,
    toolIdStart: 'call_',
    sendScriptError: sendOpenAiScriptError,
    sendMessage(res, message, stream) {
      writeAnswer(res, stream, {
        json: () => toChatCompletion(message, meta),
        chunks: () => chatChunks(message, meta),
      });
    },
    serveFailure(res, failure, message, stream) {
      // A mid-stream cut sends the role chunk and the first delta, or half the JSON.
      const partial = stream
        ? partialChatChunks(message, meta).join('')
        : halfOf(JSON.stringify(toChatCompletion(message, meta)));
      serveOpenAiFailure(res, failure, partial, { stream, api: 'chat-completions' });
    },
  });
}
