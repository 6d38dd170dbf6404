import type { HankweaveEvent } from '@hankweave/types';
import { expect } from 'vitest';
import { onTheWire } from './fuzz-helpers.js';
import {
  type ConnectionModel,
  type Expected,
  expectedAnswer,
  rateLimitedAnswer,
} from './protocol-oracle.js';
import { codeOf } from './server-world.js';

/** The id an answer names: an error's `context.commandId` or a pong's `replyTo`. */
const answerId = (event: HankweaveEvent): string | undefined =>
  (event.data as { context?: { commandId?: string } }).context?.commandId ??
  (event.data as { replyTo?: string }).replyTo;

/** One message of a burst: what it gets when let in, and when refused by the rate limit. */
interface Slot {
  text: string;
  admitted: Expected;
  refused: Expected;
  /** True when it may get no answer of its own (a valid command other than `ping`). */
  maySkip: boolean;
}

/**
 * Checks a burst of `messages` sent at once to a client with a token bucket of `burst`, full when
 * the burst began, against the `answers` it got (the targeted messages before a later ping's
 * pong). The rule (README, issue 17): every message gets exactly one answer, in the order sent:
 * its documented answer when the bucket let it in, or its own `RATE_LIMITED` error naming it as
 * any error does; the first `burst` messages are always let in. `history.batch` messages carry
 * no id and are left out of the matching.
 */
export function checkBurst(
  messages: string[],
  answers: HankweaveEvent[],
  model: ConnectionModel,
  burst: number,
): void {
  const slots: Slot[] = messages.map((text) => {
    const admitted = expectedAnswer(onTheWire(text), model);
    return {
      text,
      admitted,
      refused: rateLimitedAnswer(onTheWire(text)),
      maySkip: admitted.kind === 'command' && admitted.type !== 'ping',
    };
  });
  const tokens = answers.filter((event) => event.type !== 'history.batch');
  const assignment = matchInOrder(slots, tokens);
  expect(
    assignment,
    `answers ${JSON.stringify(tokens.map((event) => [event.type, codeOf(event), answerId(event)]))} do not match the burst one each, in order`,
  ).toBeDefined();
  for (const [index, event] of (assignment ?? []).entries()) {
    const slot = slots[index] as Slot;
    if (event === undefined) continue;
    const limited = codeOf(event) === 'RATE_LIMITED';
    const label = `message ${index}: ${slot.text.slice(0, 160)}`;
    if (index < burst) expect(limited, label).toBe(false);
    const expected = limited ? slot.refused : slot.admitted;
    if (expected.kind === 'error') {
      expect(codeOf(event), label).toBe(expected.code);
      expect((event.data as { fatal: boolean }).fatal, label).toBe(false);
      expect((event.data as { context?: unknown }).context, label).toEqual(expected.context);
    } else if (expected.kind === 'command' && expected.type === 'ping') {
      expect(event.type, label).toBe('pong');
    }
  }
}

/**
 * Assigns each answer to a message so that every message has exactly one, in order, except the
 * messages that may get none (`maySkip`); answers with an id go to the message of that id, those
 * without to a message whose answer names no id. Returns, per message, its answer (undefined when
 * it got none), or undefined when no assignment exists. Ids repeat by chance: the search is exact
 * (memoised over message and answer positions), not greedy.
 */
function matchInOrder(
  slots: Slot[],
  tokens: HankweaveEvent[],
): Array<HankweaveEvent | undefined> | undefined {
  const memo = new Map<number, boolean>();
  const fits = (slot: Slot, event: HankweaveEvent): boolean => {
    const id = answerId(event);
    const ids = [slot.admitted, slot.refused].map(idOfExpected);
    return ids.includes(id);
  };
  const can = (message: number, token: number): boolean => {
    if (message === slots.length) return token === tokens.length;
    const key = message * (tokens.length + 1) + token;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const slot = slots[message] as Slot;
    const event = tokens[token];
    const result =
      (event !== undefined && fits(slot, event) && can(message + 1, token + 1)) ||
      (slot.maySkip && can(message + 1, token));
    memo.set(key, result);
    return result;
  };
  if (!can(0, 0)) return undefined;
  const assignment: Array<HankweaveEvent | undefined> = [];
  let token = 0;
  for (let message = 0; message < slots.length; message++) {
    const slot = slots[message] as Slot;
    const event = tokens[token];
    if (event !== undefined && fits(slot, event) && can(message + 1, token + 1)) {
      assignment.push(event);
      token++;
    } else {
      assignment.push(undefined);
    }
  }
  return assignment;
}

function idOfExpected(expected: Expected): string | undefined {
  if (expected.kind === 'command') return expected.id;
  return expected.kind === 'error' ? expected.context?.commandId : undefined;
}
