import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeWorld, startFakeWorld } from '@hankweave/runtime/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, expect } from 'vitest';
import {
  type ConnectOptions,
  connectHankweave,
  type HankweaveClient,
} from '../src/connect-hankweave.js';
import type { WebSocketServerOptions } from '../src/server-options.js';
import { type HankweaveServer, startWebSocketServer } from '../src/websocket-server.js';
import { type CrashWatch, settle, watchCrashes } from './crash-watch.js';

export { type FakeWorld, startFakeWorld };

/** A world with a server on a dynamic loopback port. */
export async function startServedWorld(
  worldOptions: Parameters<typeof startFakeWorld>[0] = {},
  serverOptions: WebSocketServerOptions = {},
): Promise<ServedWorld> {
  const world = await startFakeWorld(worldOptions);
  const server = await startWebSocketServer(world.runtime, serverOptions);
  return {
    ...world,
    server,
    connect: (options = {}) => connectTestClient(server.url, { token: server.token, ...options }),
    async dispose() {
      await server.close();
      await world.dispose();
    },
  };
}

/** A world with a running server. */
export interface ServedWorld extends FakeWorld {
  server: HankweaveServer;
  /** Connects read-write with the right token unless told otherwise. */
  connect(options?: ConnectOptions): Promise<TestClient>;
}

/** A client that records everything it receives after the handshake response. */
export interface TestClient extends HankweaveClient {
  seen: HankweaveEvent[];
  /**
   * The first event at index ≥ `from` (default 0) that matches, waiting for it. Take `from` as
   * `client.seen.length` before sending to wait for what the command causes.
   */
  until(
    predicate: (event: HankweaveEvent) => boolean,
    from?: number,
    timeoutMs?: number,
  ): Promise<HankweaveEvent>;
}

/** {@link connectHankweave} read-write by default, recording events from the first one. */
export async function connectTestClient(
  url: string,
  options: ConnectOptions = {},
): Promise<TestClient> {
  const seen: HankweaveEvent[] = [];
  const client = await connectHankweave(url, {
    mode: 'readandwrite',
    ...options,
    onEvent: (event) => seen.push(event),
  });
  return Object.assign(client, {
    seen,
    until: (predicate: (event: HankweaveEvent) => boolean, from = 0, timeoutMs = 30_000) =>
      until(seen, predicate, from, timeoutMs),
  });
}

/** Waits until an event at index ≥ `from` of `events` matches. */
export async function until(
  events: HankweaveEvent[],
  predicate: (event: HankweaveEvent) => boolean,
  from = 0,
  timeoutMs = 30_000,
): Promise<HankweaveEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = events.slice(from).find(predicate);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `No matching event within ${timeoutMs} ms; saw ${events
          .slice(from)
          .map((event) => event.type)
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The error code of an `error` event (undefined for anything else). */
export const codeOf = (event: HankweaveEvent | undefined): string | undefined =>
  event?.type === 'error' ? event.data.code : undefined;

/** True for `server.idle` with that reason. */
export const idle =
  (reason: 'startup' | 'codon-completed' | 'all-codons-completed' | 'rollback-completed') =>
  (event: HankweaveEvent): boolean =>
    event.type === 'server.idle' && event.data.reason === reason;

/** Every event of the runtime's journal, in order. */
export async function journalOf(world: FakeWorld): Promise<HankweaveEvent[]> {
  const { runtime } = world;
  // Waits for the events emitted so far to reach the journal.
  await runtime.drainEvents();
  // The file itself, so this also works after the runtime has closed its journal.
  return readFileSync(join(runtime.layout.eventsDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as HankweaveEvent);
}

/**
 * `served(...)` for a test file: starts a world (as {@link startServedWorld}) that is disposed
 * after each test; the disposal is bounded, so a runtime wedged in `stopping` cannot hang the
 * file. With `failOnCrash`, a test also fails when anything crashed the process meanwhile
 * (uncaught exceptions, unhandled rejections). Call once at the top level of the file.
 */
export function useServedWorlds(
  options: { failOnCrash?: boolean } = {},
): (...args: Parameters<typeof startServedWorld>) => Promise<ServedWorld> {
  const worlds: ServedWorld[] = [];
  let watch: CrashWatch | undefined;
  afterEach(async () => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(worlds.splice(0).map((world) => world.dispose())),
      new Promise((resolve) => {
        timer = setTimeout(resolve, 10_000);
      }),
    ]);
    clearTimeout(timer);
    if (!watch) return;
    await settle();
    const crashes = watch.crashes;
    watch.stop();
    watch = undefined;
    expect(crashes).toEqual([]);
  });
  return async (...args) => {
    if (options.failOnCrash) watch ??= watchCrashes();
    const world = await startServedWorld(...args);
    worlds.push(world);
    return world;
  };
}

/** The `error` events `client` got in answer to the command with that id. */
export const errorsFor = (client: TestClient, id: string): HankweaveEvent[] =>
  client.seen.filter(
    (event) =>
      event.type === 'error' && (event.data.context as { commandId?: string })?.commandId === id,
  );
