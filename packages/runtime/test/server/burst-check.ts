import type { HankweaveEvent } from '@hankweave/types';
import { expect } from 'vitest';
import { onTheWire } from './fuzz-helpers.js';
import { expectedAnswer, type SessionModel } from './protocol-oracle.js';
import { codeOf } from './server-world.js';

/** The codes a message that cannot run may get (README's error table). */
const CODES_OF_REFUSED = [
  'INVALID_JSON',
  'INVALID_COMMAND',
  'UNKNOWN_COMMAND',
  'ALREADY_HANDSHAKEN',
  'INSUFFICIENT_PERMISSIONS',
  'RUNTIME_BAD_COMMAND',
];

/** The id an answer names: an error's `context.commandId` or a pong's `replyTo`. */
const answerId = (event: HankweaveEvent): string | undefined =>
  (event.data as { context?: { commandId?: string } }).context?.commandId ??
  (event.data as { replyTo?: string }).replyTo;

/**
 * Checks a burst of `messages` sent at once to a client with a token bucket of `burst`, full when
 * the burst began, against the `answers` it got within `seconds`: messages over the limit are
 * dropped (no answer) with at most one `RATE_LIMITED` notice a second; every other message gets
 * at most its one answer; those the full bucket let in get exactly theirs.
 */
export function checkBurst(
  messages: string[],
  answers: HankweaveEvent[],
  model: SessionModel,
  burst: number,
  seconds: number,
): void {
  const expectations = messages.map((text) => expectedAnswer(onTheWire(text), model));
  const notices = answers.filter((event) => codeOf(event) === 'RATE_LIMITED');
  expect(notices.length).toBeLessThanOrEqual(Math.floor(seconds) + 1);
  for (const notice of notices) expect(notice.data).not.toHaveProperty('context');
  const rest = answers.filter((event) => codeOf(event) !== 'RATE_LIMITED');
  expectations.forEach((expected, index) => {
    const id =
      expected.kind === 'command'
        ? expected.id
        : expected.kind === 'error'
          ? expected.context?.commandId
          : undefined;
    // Ids repeat across messages only by chance (a generated one); skip those.
    if (id === undefined || expectations.filter((other) => idOf(other) === id).length > 1) return;
    const mine = rest.filter((event) => answerId(event) === id);
    expect(mine.length, messages[index]).toBeLessThanOrEqual(1);
    if (index < burst && expected.kind === 'error') expect(mine.length, messages[index]).toBe(1);
  });
  // Never more errors than messages that deserve one, never fewer than the full bucket let in.
  const deserving = expectations.filter((expected) => expected.kind === 'error');
  const errors = rest.filter((event) => event.type === 'error');
  expect(errors.length).toBeLessThanOrEqual(deserving.length);
  expect(errors.length).toBeGreaterThanOrEqual(
    expectations.slice(0, burst).filter((expected) => expected.kind === 'error').length,
  );
  for (const error of errors) expect(CODES_OF_REFUSED).toContain(codeOf(error));
}

function idOf(expected: ReturnType<typeof expectedAnswer>): string | undefined {
  if (expected.kind === 'command') return expected.id;
  return expected.kind === 'error' ? expected.context?.commandId : undefined;
}
