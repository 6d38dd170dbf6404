import type { ServerResponse } from 'node:http';
import type { ScriptedModelError } from '../errors.js';
import type { RecordedRequest } from '../recorded-request.js';
import type { Failure } from '../script-schema.js';
import { recordedError } from './recorded-error.js';
import { type ApiMessage, renderMessage } from './render-message.js';
import { type MessagesRequest, toolIdPrefix } from './request-view.js';
import type { TurnSelector } from './select-turn.js';
import { afterTurnDelay } from './turn-delay.js';

/**
 * What differs between the APIs that answer Pi-style agents (Chat Completions, Responses,
 * generateContent): how the answer is written. Everything else (conversation, instance, turn,
 * failure counting, tool shapes) is decided once, on the request's Messages view.
 */
export interface ScriptedApi {
  /** The request seen as a Messages request. */
  view: MessagesRequest;
  stream: boolean;
  /** Id of the answer (`chatcmpl-…`, `resp_…`); also the rendered message's id. */
  answerId: string;
  /** Start of generated tool call ids (`call_`). */
  toolIdStart: string;
  /** Writes the server's own error (no conversation, no turn) in the API's error shape. */
  sendScriptError(res: ServerResponse, error: ScriptedModelError): void;
  /** Writes a complete answer, streamed or as one JSON body. */
  sendMessage(res: ServerResponse, message: ApiMessage, stream: boolean): void;
  /** Serves a scripted failure; `message` is what a mid-stream cut starts to send. */
  serveFailure(res: ServerResponse, failure: Failure, message: ApiMessage, stream: boolean): void;
}

/** Records the server's own error on the request and answers it in the API's shape. */
export function answerScriptError(
  res: ServerResponse,
  entry: RecordedRequest,
  error: ScriptedModelError,
  send: (res: ServerResponse, error: ScriptedModelError) => void,
): void {
  entry.error = recordedError(error);
  send(res, error);
}

/**
 * Answers one request from the script: selects the turn on the request's Messages view, renders
 * it with the tool names the request offers (Pi's lowercase ones when it offers neither
 * agent's), and serves its failure or its content through `api`. Fills in `entry.match` or
 * `entry.error`.
 */
export function answerFromScript(
  res: ServerResponse,
  entry: RecordedRequest,
  selector: TurnSelector,
  api: ScriptedApi,
): void {
  const selection = selector.select(api.view);
  if (selection.type === 'error') {
    answerScriptError(res, entry, selection.error, api.sendScriptError);
    return;
  }
  const { conversation, conversationName, turn, alternative } = selection;
  const message = renderMessage(selection.value, {
    request: api.view,
    messageId: api.answerId,
    idPrefix: toolIdPrefix(api.view, { conversation, turn, alternative }, entry.seq),
    fallbackDialect: 'pi',
    toolIdStart: api.toolIdStart,
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
    // A failure-only turn has no content to cut; an empty text gives the stream its first delta.
    const cut: ApiMessage =
      message.content.length > 0 ? message : { ...message, content: [{ type: 'text', text: '' }] };
    afterTurnDelay(res, selection.value.delayMs, () =>
      api.serveFailure(res, selection.failure, cut, api.stream),
    );
    return;
  }
  entry.match = { conversation, conversationName, turn, alternative, served: 'content' };
  afterTurnDelay(res, selection.value.delayMs, () => api.sendMessage(res, message, api.stream));
}

/**
 * Writes a whole answer: one JSON body (`contentType`, default `application/json`), or `chunks`
 * as an event stream.
 */
export function writeAnswer(
  res: ServerResponse,
  stream: boolean,
  answer: { json: () => unknown; chunks: () => Iterable<string>; contentType?: string },
): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': answer.contentType ?? 'application/json' });
    res.end(JSON.stringify(answer.json()));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of answer.chunks()) res.write(chunk);
  res.end();
}

/** The bytes a mid-stream cut of a JSON answer sends: its first half. */
export function halfOf(json: string): string {
  return json.slice(0, Math.floor(json.length / 2));
}
