import { ScriptedModelError } from '../errors.js';
import type { Conversation, Failure, Script, Turn, When } from '../script-schema.js';
import {
  allToolResultsText,
  assistantMessagesAfter,
  conversationKey,
  lastToolResultText,
  lastUserMessageText,
  type MessagesRequest,
  systemText,
  userText,
} from './request-view.js';

/** Where a request landed in the script. */
export interface TurnAddress {
  /** Index of the conversation in the script. */
  conversation: number;
  /** The conversation's `name`, or `#<index>`. */
  conversationName: string;
  /** Index of the turn (slot) in the conversation. */
  turn: number;
  /** Index of the alternative inside a `choose` slot; 0 for a plain turn. */
  alternative: number;
}

/** What to answer to one Messages request. */
export type Selection =
  | ({ type: 'content'; value: Turn } & TurnAddress)
  | ({ type: 'failure'; value: Turn; failure: Failure; attempt: number } & TurnAddress)
  | { type: 'error'; error: ScriptedModelError };

interface Candidate {
  index: number;
  conversation: Conversation;
  /** Index of the message holding the marker; -1 when found in the system text or unmarked. */
  anchor: number;
}

function anchorOf(conversation: Conversation, request: MessagesRequest): number | undefined {
  const marker = conversation.match?.marker;
  if (marker === undefined) return -1;
  // The latest message wins so that a resumed session whose new prompt carries another marker
  // switches to that marker's conversation.
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message !== undefined && userText(message).includes(marker)) return index;
  }
  return systemText(request).includes(marker) ? -1 : undefined;
}

function holds(when: When | undefined, request: MessagesRequest): boolean {
  if (when === undefined) return true;
  const checks: [string | undefined, () => string][] = [
    [when.lastToolResultContains, () => lastToolResultText(request)],
    [when.anyToolResultContains, () => allToolResultsText(request)],
    [when.lastUserMessageContains, () => lastUserMessageText(request)],
    [when.systemContains, () => systemText(request)],
    [when.model, () => request.model],
  ];
  return checks.every(([needle, haystack]) => needle === undefined || haystack().includes(needle));
}

/**
 * The stateful part of the server: binds conversation instances to script conversations and
 * counts the failures served per turn. One per server.
 */
export class TurnSelector {
  readonly #script: Script;
  readonly #bindings = new Map<string, number>();
  readonly #bound = new Set<number>();
  readonly #failuresServed = new Map<string, number>();

  constructor(script: Script) {
    this.#script = script;
  }

  /** Picks the turn (or failure, or error) that answers `request`; counts a served failure. */
  select(request: MessagesRequest): Selection {
    const candidate = this.#pickConversation(request);
    if (candidate === undefined) {
      return {
        type: 'error',
        error: new ScriptedModelError(
          'SCRIPTED_MODEL_NO_CONVERSATION',
          'no conversation of the script matches this request (no marker found and no unmarked conversation)',
        ),
      };
    }
    const { index, conversation, anchor } = candidate;
    const conversationName = conversation.name ?? `#${index}`;
    const turnIndex = assistantMessagesAfter(request, anchor);
    const slot = conversation.turns[turnIndex];
    const noTurn = (why: string): Selection => ({
      type: 'error',
      error: new ScriptedModelError(
        'SCRIPTED_MODEL_NO_TURN',
        `conversation ${conversationName} ${why}`,
        {
          details: { conversation: conversationName, turn: turnIndex },
        },
      ),
    });
    if (slot === undefined) {
      // Said in counts (turn 1 is the first), as a person reads a script.
      return noTurn(
        `has ${conversation.turns.length} turn(s) and the agent asked for turn ${turnIndex + 1}`,
      );
    }
    const alternatives = 'choose' in slot ? slot.choose : [slot];
    const alternative = alternatives.findIndex((turn) => holds(turn.when, request));
    const turn = alternatives[alternative];
    if (turn === undefined) return noTurn(`turn ${turnIndex}: no alternative's \`when\` holds`);
    const address = { conversation: index, conversationName, turn: turnIndex, alternative };
    if (turn.fail !== undefined) {
      const counter = `${index}/${turnIndex}/${alternative}`;
      const served = this.#failuresServed.get(counter) ?? 0;
      const times = turn.times ?? 'always';
      if (times === 'always' || served < times) {
        this.#failuresServed.set(counter, served + 1);
        return {
          type: 'failure',
          value: turn,
          failure: turn.fail,
          attempt: served + 1,
          ...address,
        };
      }
    }
    return { type: 'content', value: turn, ...address };
  }

  #pickConversation(request: MessagesRequest): Candidate | undefined {
    const all = this.#script.conversations.map((conversation, index) => ({
      index,
      conversation,
      anchor: anchorOf(conversation, request),
    }));
    const marked = all.filter(
      (c): c is Candidate => c.conversation.match !== undefined && c.anchor !== undefined,
    );
    const pool =
      marked.length > 0
        ? marked
        : all.filter((c): c is Candidate => c.conversation.match === undefined);
    if (pool.length === 0) return undefined;
    const latest = Math.max(...pool.map((c) => c.anchor));
    const tier = pool.filter((c) => c.anchor === latest);
    const key = `${latest}\u0000${conversationKey(request)}`;
    const boundIndex = this.#bindings.get(key);
    const chosen =
      tier.find((c) => c.index === boundIndex) ??
      tier.find((c) => !this.#bound.has(c.index)) ??
      tier[tier.length - 1];
    if (chosen !== undefined && boundIndex !== chosen.index) {
      this.#bindings.set(key, chosen.index);
      this.#bound.add(chosen.index);
    }
    return chosen;
  }
}
