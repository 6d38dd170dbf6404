import type { ServerResponse } from 'node:http';
import { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';
import { sendChatError, serveChatFailure } from './chat-failures.js';
import {
  type ChatRequest,
  chatRequestSchema,
  includesUsage,
  toMessagesView,
} from './chat-request.js';
import { type ChunkMeta, chatChunks, partialChatChunks } from './chat-sse.js';
import { toChatCompletion } from './render-chat-completion.js';
import { type ApiMessage, renderMessage } from './render-message.js';
import type { TurnSelector } from './select-turn.js';

/** Answers with the server's own error: 400, the code both in `code` and leading the message. */
function sendScriptError(res: ServerResponse, entry: RecordedRequest, error: ScriptedModelError) {
  entry.error = { code: error.code, message: error.message };
  sendChatError(res, 400, {
    message: `${error.code}: ${error.message}`,
    type: 'invalid_request_error',
    code: error.code,
  });
}

function parseRequest(body: unknown): ChatRequest | ScriptedModelError {
  const parsed = chatRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  return new ScriptedModelError(
    'SCRIPTED_MODEL_INVALID_REQUEST',
    'the body is not a Chat Completions request (model and messages are required)',
    { cause: parsed.error },
  );
}

function sendCompletion(
  res: ServerResponse,
  message: ApiMessage,
  meta: ChunkMeta,
  stream: boolean,
) {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(toChatCompletion(message, meta)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of chatChunks(message, meta)) res.write(chunk);
  res.end();
}

/**
 * Serves one `POST /v1/chat/completions` from the same script as the Messages API: the request is
 * viewed as a Messages request, so it lands on the same conversation and turn, and the turn is
 * rendered with the tool names the request offers (Pi's lowercase ones when it offers neither
 * agent's). Fills in `entry.match` or `entry.error`.
 */
export function handleChatCompletions(
  res: ServerResponse,
  entry: RecordedRequest,
  context: { selector: TurnSelector },
): void {
  const request = parseRequest(entry.body);
  if (request instanceof ScriptedModelError) {
    sendScriptError(res, entry, request);
    return;
  }
  const view = toMessagesView(request);
  const stream = request.stream === true;
  const meta: ChunkMeta = {
    id: `chatcmpl-scripted-${String(entry.seq).padStart(4, '0')}`,
    created: Math.floor(Date.parse(entry.receivedAt) / 1000),
    includeUsage: includesUsage(request),
  };
  const selection = context.selector.select(view);
  if (selection.type === 'error') {
    sendScriptError(res, entry, selection.error);
    return;
  }
  const { conversation, conversationName, turn, alternative } = selection;
  const message = renderMessage(selection.value, {
    request: view,
    messageId: meta.id,
    idPrefix: `sm${conversation}t${turn}a${alternative}`,
    fallbackDialect: 'pi',
    toolIdStart: 'call_',
  });
  if (selection.type === 'failure') {
    entry.match = {
      conversation,
      conversationName,
      turn,
      alternative,
      served: 'failure',
      failure: selection.failure.kind,
      attempt: selection.attempt,
    };
    serveChatFailure(res, selection.failure, partialBody(message, meta, stream), stream);
    return;
  }
  entry.match = { conversation, conversationName, turn, alternative, served: 'content' };
  sendCompletion(res, message, meta, stream);
}

/** What a mid-stream failure sends: the role chunk and the first delta, or half the JSON. */
function partialBody(message: ApiMessage, meta: ChunkMeta, stream: boolean): string {
  // A failure-only turn has no content to cut; an empty text gives the stream its first delta.
  const cut: ApiMessage =
    message.content.length > 0 ? message : { ...message, content: [{ type: 'text', text: '' }] };
  if (stream) return partialChatChunks(cut, meta).join('');
  const json = JSON.stringify(toChatCompletion(cut, meta));
  return json.slice(0, Math.floor(json.length / 2));
}
