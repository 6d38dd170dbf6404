import type { IncomingMessage, ServerResponse } from 'node:http';
import { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';
import { type Script, turnSchema } from '../script-schema.js';
import { sendApiError, serveFailure } from './failures.js';
import { recordedError } from './recorded-error.js';
import { type ApiMessage, renderMessage } from './render-message.js';
import {
  isSideRequest,
  type MessagesRequest,
  messagesRequestSchema,
  toolIdPrefix,
} from './request-view.js';
import type { TurnSelector } from './select-turn.js';
import { messageEvents } from './sse.js';
import { afterTurnDelay } from './turn-delay.js';

/** Sends a complete message, as SSE when the client asked to stream, else as JSON. */
function sendMessage(res: ServerResponse, message: ApiMessage, stream: boolean): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of messageEvents(message)) res.write(event);
  res.end();
}

/** Answers with the server's own error; 400 so that clients fail at once instead of retrying. */
function sendScriptError(res: ServerResponse, entry: RecordedRequest, error: ScriptedModelError) {
  entry.error = recordedError(error);
  sendApiError(res, 400, 'invalid_request_error', `${error.code}: ${error.message}`);
}

function parseRequest(body: unknown): MessagesRequest | ScriptedModelError {
  const parsed = messagesRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  return new ScriptedModelError(
    'SCRIPTED_MODEL_INVALID_REQUEST',
    'the body is not a Messages API request (model and messages are required)',
    { cause: parsed.error },
  );
}

/** Serves one `POST /v1/messages`, filling in `entry.side`, `entry.match` or `entry.error`. */
export function handleMessages(
  req: IncomingMessage,
  res: ServerResponse,
  entry: RecordedRequest,
  context: { script: Script; selector: TurnSelector },
): void {
  const request = parseRequest(entry.body);
  if (request instanceof ScriptedModelError) {
    sendScriptError(res, entry, request);
    return;
  }
  const stream = request.stream === true;
  const messageId = `msg_scripted_${String(entry.seq).padStart(4, '0')}`;
  if (isSideRequest(req.headers, request)) {
    entry.side = true;
    const turn = turnSchema.parse({ content: [{ text: context.script.sideReply }] });
    sendMessage(res, renderMessage(turn, { request, messageId, idPrefix: 'side' }), stream);
    return;
  }
  const selection = context.selector.select(request);
  if (selection.type === 'error') {
    sendScriptError(res, entry, selection.error);
    return;
  }
  const { conversation, conversationName, turn, alternative } = selection;
  const idPrefix = toolIdPrefix(request, { conversation, turn, alternative }, entry.seq);
  const message = renderMessage(selection.value, { request, messageId, idPrefix });
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
    // A mid-stream cut needs a block to cut; a failure-only turn has none, so cut an empty text.
    const cut = message.content.length > 0 ? message : withEmptyText(message);
    afterTurnDelay(res, selection.value.delayMs, () =>
      serveFailure(res, selection.failure, cut, stream),
    );
    return;
  }
  entry.match = { conversation, conversationName, turn, alternative, served: 'content' };
  afterTurnDelay(res, selection.value.delayMs, () => sendMessage(res, message, stream));
}

function withEmptyText(message: ApiMessage): ApiMessage {
  return { ...message, content: [{ type: 'text', text: '' }] };
}
