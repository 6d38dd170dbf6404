import { readFileSync } from 'node:fs';
import type { RuntimeCommand } from '@hankweave/runtime';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeWorld,
  idle,
  journalOf,
  type ServedWorld,
  startFakeWorld,
  startServedWorld,
  until,
} from '../test/server-world.js';

const worlds: FakeWorld[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((world) => world.dispose()));
});

/** b hangs the first time it runs, so that codon.skip has something to skip. */
const script = (codonId: string, index: number) =>
  codonId === 'b' && index === 1
    ? { hang: true }
    : { scenario: { turns: [{ text: `working on ${codonId}` }, { text: 'Done.' }] } };

/** One way to drive a runtime: send a command, and the events it has seen so far. */
interface Driver {
  send(command: RuntimeCommand): Promise<void>;
  events: HankweaveEvent[];
}

/** The done-when steps: next, next + skip, rollback, next, next, shutdown. */
async function drive(driver: Driver, finished: Promise<unknown>): Promise<void> {
  const step = async (command: RuntimeCommand, done: (event: HankweaveEvent) => boolean) => {
    const from = driver.events.length;
    await driver.send(command);
    await until(driver.events, done, from, 30_000);
  };
  await step({ type: 'codon.next' }, idle('codon-completed'));
  await step({ type: 'codon.next' }, (event) => event.type === 'codon.started');
  await step({ type: 'codon.skip' }, idle('codon-completed'));
  await step(
    { type: 'rollback.toCodon', data: { codonId: 'a', checkpointType: 'end' } },
    idle('rollback-completed'),
  );
  await step({ type: 'codon.next' }, idle('codon-completed'));
  await step({ type: 'codon.next' }, idle('all-codons-completed'));
  await driver.send({ type: 'server.shutdown' });
  await finished;
}

/** The journal as comparable steps: type, plus the transition or idle reason that matters. */
function journalShape(events: HankweaveEvent[]): string[] {
  return events.map((event) => {
    const data = event.data as Record<string, unknown>;
    const detail = data.transitionType ?? data.reason ?? data.codonId ?? '';
    return `${event.type} ${String(detail)}`.trim();
  });
}

/** state.json with ids, times, shas and paths replaced by stable placeholders. */
function stateShape(world: FakeWorld): unknown {
  const layout = world.runtime.layout;
  const state = JSON.parse(readFileSync(layout.stateFile, 'utf8'));
  const names = new Map<string, string>();
  const rename = (kind: string, value: string) => {
    if (!names.has(value)) names.set(value, `<${kind}${names.size}>`);
    return names.get(value);
  };
  const walk = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, walk(item, name)]),
      );
    if (typeof value === 'number' && /duration|time|ms$|pid|heartbeat/i.test(key)) return '<n>';
    if (typeof value !== 'string') return value;
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value)) return '<time>';
    if (/^[0-9a-f]{40}$/.test(value)) return rename('sha', value);
    if (/^[0-9a-f-]{36}$/.test(value)) return rename('uuid', value);
    // Run ids (`{ms}-{random5}`) also appear inside paths.
    return value
      .replaceAll(layout.executionDir, '<exec>')
      .replace(/\d{13}-[a-z0-9]{5}/g, (id) => rename('run', id) ?? id);
  };
  return walk(state);
}

describe('a run driven only over WebSocket', () => {
  it('leaves the same state and journal as the same steps taken in process', async () => {
    const inProcess = await startFakeWorld({ script });
    worlds.push(inProcess);
    await drive(
      {
        send: async (command) => {
          await inProcess.runtime.command(command);
        },
        events: inProcess.events,
      },
      inProcess.runtime.finished,
    );

    const overWire: ServedWorld = await startServedWorld({ script });
    worlds.push(overWire);
    const client = await overWire.connect();
    await drive(
      {
        send: async (command) => {
          const error = await client.send(command);
          if (error) throw new Error(`${command.type}: ${error.data.code} ${error.data.message}`);
        },
        events: client.seen,
      },
      overWire.runtime.finished,
    );
    expect((await client.closed).code).toBe(1001);

    const [local, remote] = [await journalOf(inProcess), await journalOf(overWire)];
    expect(journalShape(remote)).toEqual(journalShape(local));
    expect(journalShape(local)).toContain('codon.completed b');
    expect(
      overWire.runtime.getState().runs.map((run) => run.codons.map((codon) => codon.status)),
    ).toEqual([
      // Newest run first: the continuation after the rollback, then the first run.
      ['completed', 'completed'],
      ['completed', 'skipped'],
    ]);
    expect(stateShape(overWire)).toEqual(stateShape(inProcess));
    // The client saw exactly the journal (after its handshake), in order.
    const seen = client.seen
      .filter((event) => remote.some((journaled) => journaled.id === event.id))
      .map((event) => event.id);
    expect(seen).toEqual(remote.slice(remote.length - seen.length).map((event) => event.id));
    expect(seen.length).toBe(remote.length - client.handshake.totalEvents);
  });
});
