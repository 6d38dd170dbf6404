import type { HankweaveEvent } from '@hankweave/types';
import { expect } from 'vitest';
import { type Expected, isChanging } from './protocol-oracle.js';
import type { ServedWorld, TestClient } from './server-world.js';

/** Helpers shared by the protocol's property tests. */

/** A message as the server sees it (lone surrogates become U+FFFD on the way). */
export const onTheWire = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/**
 * Makes a message safe for a world that must not change: a valid changing command loses its id
 * (so it must be refused), everything else stays as it is.
 */
export function withoutChangingId(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const { type } = value as { type?: unknown };
  if (typeof type !== 'string' || !isChanging(type)) return text;
  const { id: _dropped, ...rest } = value as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** What state.json says about runs and codons (to compare before and after). */
export function runsOf(world: ServedWorld): string {
  return JSON.stringify(
    world.runtime.getState().runs.map((run) => ({
      runId: run.runId,
      status: run.status,
      codons: run.codons.map((codon) => [codon.codonId, codon.status]),
    })),
  );
}

/** Ids of the events the runtime emitted (journaled ones; everything else is targeted). */
export const journaledIds = (world: ServedWorld): Set<string> =>
  new Set(world.events.map((event) => event.id));

let marks = 0;
/** A fresh marker id. */
export const nextMark = (): string => `mark_${++marks}`;

/**
 * Sends `text` and a marker ping on `client`, and returns the targeted messages in between: the
 * server handles a client's messages in order, so they are exactly the answer to `text`. A pong
 * of someone's `ping.broadcast` is not an answer and is left out, unless it names this client.
 */
export async function answerTo(
  world: ServedWorld,
  client: TestClient,
  text: string,
): Promise<HankweaveEvent[]> {
  const from = client.seen.length;
  const mark = nextMark();
  client.sendRaw(text);
  client.sendRaw(JSON.stringify({ id: mark, type: 'ping' }));
  const pong = await untilOpen(
    client,
    (event) => event.type === 'pong' && (event.data as { replyTo?: string }).replyTo === mark,
    from,
  );
  const journaled = journaledIds(world);
  return client.seen
    .slice(from, client.seen.indexOf(pong))
    .filter((event) => !journaled.has(event.id))
    .filter((event) => !isBroadcastPongOf(event, otherThan(client)));
}

/** {@link TestClient.until}, but failing at once when the connection closes. */
export async function untilOpen(
  client: TestClient,
  predicate: (event: HankweaveEvent) => boolean,
  from: number,
  timeoutMs = 10_000,
): Promise<HankweaveEvent> {
  let closed: { code: number } | undefined;
  void client.closed.then((info) => {
    closed = info;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = client.seen.slice(from).find(predicate);
    if (found) return found;
    if (closed) throw new Error(`the connection closed (${closed.code}) before the answer`);
    if (Date.now() > deadline) throw new Error(`no answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const otherThan = (client: TestClient) => (clientId: string) =>
  clientId !== client.handshake.clientId;

function isBroadcastPongOf(event: HankweaveEvent, matches: (clientId: string) => boolean): boolean {
  const clientId = (event.data as { clientId?: unknown } | undefined)?.clientId;
  return event.type === 'pong' && typeof clientId === 'string' && matches(clientId);
}

/** Checks that `answers` is what the protocol promises for a message with `expected`. */
export function expectAnswer(
  answers: Array<{ type?: string; data?: unknown }>,
  expected: Expected,
  label: string,
): void {
  const errors = answers.filter((answer) => answer.type === 'error');
  if (expected.kind === 'close') {
    expect(answers, label).toEqual([]);
    return;
  }
  if (expected.kind === 'error') {
    expect(answers, label).toHaveLength(1);
    const data = errors[0]?.data as { code?: string; context?: unknown; fatal?: boolean };
    expect(data?.code, label).toBe(expected.code);
    expect(data?.fatal, label).toBe(false);
    expect(data?.context, label).toEqual(expected.context);
    return;
  }
  if (expected.kind === 'handshake') {
    expect(errors, label).toEqual([]);
    expect(answers[0]?.type, label).toBe('handshake.response');
    expect(answers[1]?.type, label).toBe('server.ready');
    return;
  }
  // A valid command: at most one error, and that one names it.
  expect(errors.length, label).toBeLessThanOrEqual(1);
  for (const error of errors)
    expect((error.data as { context?: { commandId?: string } }).context?.commandId, label).toBe(
      expected.id,
    );
  if (expected.type === 'ping') {
    expect(errors, label).toEqual([]);
    expect(
      answers.filter(
        (answer) =>
          answer.type === 'pong' && (answer.data as { replyTo?: string }).replyTo === expected.id,
      ),
      label,
    ).toHaveLength(1);
  }
  if (expected.type === 'history.sync') {
    expect(errors, label).toEqual([]);
    const batches = answers.filter((answer) => answer.type === 'history.batch');
    expect(batches.at(-1)?.data, label).toMatchObject({ hasMore: false });
  }
}

/** Polls `condition` every turn of the event loop until it holds or `timeoutMs` passes. */
export async function eventually(
  condition: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Errors the runtime reported as fatal: the runtime failed, whatever the input. */
export const runtimeFailures = (world: ServedWorld, from = 0): string[] =>
  world.events
    .slice(from)
    .filter(
      (event) =>
        event.type === 'error' && (event.data as { severity?: string }).severity === 'fatal',
    )
    .map((event) => (event.data as { message: string }).message.split('\n')[0] ?? '');
