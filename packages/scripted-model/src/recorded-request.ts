import type { ScriptedModelErrorCode } from './errors.js';
import type { Failure } from './script-schema.js';

/**
 * What kind of request the server saw: `messages` (Anthropic Messages API), `chat-completions`
 * (OpenAI Chat Completions API), `responses` (OpenAI Responses API), `generate-content` (Gemini
 * API, streaming or not), `count-tokens`, or `other` (probes, model lists).
 */
export type RequestKind =
  | 'messages'
  | 'chat-completions'
  | 'responses'
  | 'generate-content'
  | 'count-tokens'
  | 'other';

/** Where a model request (any kind but `count-tokens` and `other`) landed in the script. */
export interface RequestMatch {
  /** Index of the conversation in the script. */
  conversation: number;
  /** The conversation's `name`, or `#<index>`. */
  conversationName: string;
  /** Index of the turn in the conversation (= assistant messages after the anchor). */
  turn: number;
  /** Index of the alternative inside a `choose` turn; 0 for a plain turn. */
  alternative: number;
  /** `content` when the turn's content was served, `failure` when its failure was. */
  served: 'content' | 'failure';
  /** The failure kind, when `served` is `failure`. */
  failure?: Failure['kind'];
  /** 1 for the first failure served for this turn, 2 for the second, … */
  attempt?: number;
}

/** One request as the server received it, with what it answered. */
export interface RecordedRequest {
  /** 1-based arrival order. */
  seq: number;
  /** ISO time of arrival. */
  receivedAt: string;
  method: string;
  /** Path with query string, e.g. `/v1/messages?beta=true` (a `key=` parameter's value hidden). */
  path: string;
  /** Request headers, minus credentials (`x-api-key`, `x-goog-api-key`, `authorization`, `cookie`). */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when not JSON; undefined when empty. */
  body: unknown;
  kind: RequestKind;
  /** True for a Claude Code side request (no tools offered): answered with `sideReply`. */
  side?: boolean;
  /** Set when the request consumed or hit a script turn. */
  match?: RequestMatch;
  /**
   * Set when the server answered with its own error (no conversation, no turn, bad body).
   * `details` names what the script lacked: `{conversation, turn}` for a missing turn.
   */
  error?: { code: ScriptedModelErrorCode; message: string; details?: Record<string, unknown> };
}
