import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import {
  codeOf,
  idle,
  journalOf,
  type ServedWorld,
  type TestClient,
  useServedWorlds,
} from '../test/server-world.js';

const served = useServedWorlds();

let marks = 0;
/**
 * Sends `raw`, then a ping, and returns every targeted message the client got in between: the
 * server handles a client's messages in order, so that is exactly what `raw` caused.
 */
async function answersTo(client: TestClient, raw: string): Promise<HankweaveEvent[]> {
  const from = client.seen.length;
  const mark = `mark_${++marks}`;
  client.sendRaw(raw);
  client.sendRaw(JSON.stringify({ id: mark, type: 'ping' }));
  const pong = await client.until(
    (event) => event.type === 'pong' && (event.data as { replyTo?: string }).replyTo === mark,
    from,
  );
  return client.seen.slice(from, client.seen.indexOf(pong));
}

/** What state.json says about runs and codons, to compare before and after. */
function runsOf(world: ServedWorld): string {
  return JSON.stringify(
    world.runtime.getState().runs.map((run) => ({
      runId: run.runId,
      codons: run.codons.map((codon) => [codon.codonId, codon.status]),
    })),
  );
}

describe('commands without a string id over the wire', () => {
  it('refuses {"type": "server.shutdown"} with one INVALID_COMMAND and keeps serving', async () => {
    const world = await served();
    const client = await world.connect();
    const answers = await answersTo(client, JSON.stringify({ type: 'server.shutdown' }));
    expect(answers.map(codeOf)).toEqual(['INVALID_COMMAND']);
    expect(answers[0]?.data).toMatchObject({ context: { commandType: 'server.shutdown' } });
    expect((answers[0]?.data as { message?: string } | undefined)?.message).toMatch(/string id/);
    expect(world.runtime.phase).toBe('idle');
    expect(world.server.clients()).toHaveLength(1);
    expect(await client.send({ type: 'ping' })).toBeUndefined();
  });

  it('refuses {"type": "codon.next"}: no codon starts', async () => {
    const world = await served();
    const client = await world.connect();
    const journal = (await journalOf(world)).length;
    const answers = await answersTo(client, JSON.stringify({ type: 'codon.next' }));
    expect(answers.map(codeOf)).toEqual(['INVALID_COMMAND']);
    // Give a wrongly started codon time to show itself.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(world.harness.starts).toHaveLength(0);
    expect(world.runtime.getState().runs[0]?.codons).toHaveLength(0);
    expect((await journalOf(world)).length).toBe(journal);
  });

  it('refuses {"id": null, "type": "rollback.toLastSuccess"}: nothing is rolled back', async () => {
    const world = await served();
    const client = await world.connect();
    const from = client.seen.length;
    expect(await client.send({ type: 'codon.next' })).toBeUndefined();
    await client.until(idle('codon-completed'), from);
    const before = runsOf(world);
    const journal = (await journalOf(world)).length;
    const answers = await answersTo(
      client,
      JSON.stringify({ id: null, type: 'rollback.toLastSuccess' }),
    );
    expect(answers.map(codeOf)).toEqual(['INVALID_COMMAND']);
    expect(answers[0]?.data).toMatchObject({ context: { commandType: 'rollback.toLastSuccess' } });
    expect(runsOf(world)).toBe(before);
    expect((await journalOf(world)).length).toBe(journal);
  });

  it.each([
    ['a number', 5],
    ['an empty string', ''],
    ['an array', ['a']],
    ['an object', { id: 'a' }],
    ['false', false],
  ])('refuses an id that is %s with INVALID_COMMAND, and runs nothing', async (_name, id) => {
    const world = await served();
    const client = await world.connect();
    for (const type of ['codon.next', 'server.force_shutdown', 'checkpoint.list']) {
      const answers = await answersTo(client, JSON.stringify({ id, type }));
      expect(answers.map(codeOf)).toEqual(['INVALID_COMMAND']);
      // The id is not echoed (it is not a valid one), the type is.
      expect((answers[0]?.data as { context?: unknown } | undefined)?.context).toEqual({
        commandType: type,
      });
    }
    expect(world.harness.starts).toHaveLength(0);
    expect(world.runtime.phase).toBe('idle');
  });

  it('names no commandType when the type is not a string, and echoes a valid id', async () => {
    const world = await served();
    const client = await world.connect();
    expect(
      (await answersTo(client, JSON.stringify({ type: 7 }))).map((event) => event.data),
    ).toMatchObject([{ code: 'INVALID_COMMAND' }]);
    const [answer] = await answersTo(client, JSON.stringify({ id: 'x1', type: ['ping'] }));
    expect(answer?.data).toMatchObject({ code: 'INVALID_COMMAND', context: { commandId: 'x1' } });
    expect((answer?.data as { context?: object } | undefined)?.context).not.toHaveProperty(
      'commandType',
    );
  });

  it('answers a second handshake with one error naming its id, and a handshake needs none', async () => {
    const world = await served();
    // connect() sends a handshake without an id (the protocol's first message has none).
    const client = await world.connect();
    const answers = await answersTo(
      client,
      JSON.stringify({ id: 'h2', type: 'handshake', data: { mode: 'readonly' } }),
    );
    expect(answers.map((event) => event.data)).toMatchObject([
      { code: 'ALREADY_HANDSHAKEN', context: { commandId: 'h2', commandType: 'handshake' } },
    ]);
    expect(client.handshake.mode).toBe('readandwrite');
  });

  it('the typed client always sends an id, so its errors are matched to its commands', async () => {
    const world = await served();
    const client = await world.connect();
    const skipped = await client.send({ type: 'codon.skip' });
    expect(codeOf(skipped)).toBe('RUNTIME_NO_CODON_RUNNING');
    expect(skipped?.data.context).toMatchObject({ commandId: expect.stringMatching(/^cmd_/) });
    // An explicit id travels as given; an empty one is replaced (it would be refused).
    const own = await client.send({ id: 'mine', type: 'codon.forceStop' });
    expect(own?.data.context).toMatchObject({ commandId: 'mine' });
    const empty = await client.send({ id: '', type: 'codon.skip' });
    expect(codeOf(empty)).toBe('RUNTIME_NO_CODON_RUNNING');
    expect(empty?.data.context).toMatchObject({ commandId: expect.stringMatching(/^cmd_/) });
  });
});
