import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentWorld, makeAgentWorld } from '../test/agent-world.js';
import { connectTestClient } from '../test/server-world.js';
import { startWebSocketServer } from './websocket-server.js';

// Issue 36: a parallel block runs several codons at once, and a WebSocket client sees them all in
// `state.snapshot` (`activeCodons`, each with its branch). The real Claude Code agent on the
// scripted model: branch `fast` finishes at once, while the codons of `left` and `right` each wait
// in a Bash loop for a gate file that the test writes into their work tree only after it has
// read the snapshot that `fast`'s completion sends. So that snapshot is taken, for certain, while
// both run.

const codon = (id: string) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `TASK_${id.toUpperCase().replace(/-/g, '_')}: do ${id}`,
  checkpointedFiles: ['**/*.txt'],
});
const conversation = (id: string, turns: unknown[][]) => ({
  match: { marker: `TASK_${id.toUpperCase().replace(/-/g, '_')}` },
  turns: [...turns, [{ text: 'Done.' }]].map((content) => ({
    content,
    usage: { inputTokens: 100, outputTokens: 10 },
  })),
});
const write = (path: string) => ({ write: { path, content: `${path}\n` } });
// Waits (at most 100 s) in the branch's work tree, the agent's working directory.
const waitFor = (gate: string) => ({
  bash: {
    command: `for i in $(seq 1000); do [ -e ${gate} ] && break; sleep 0.1; done; echo OPEN`,
    description: 'Wait for the gate',
    timeoutMs: 120_000,
  },
});

const hank = {
  meta: { name: 'parallel-snapshot', version: '1.0.0' },
  hank: [
    {
      type: 'parallel',
      id: 'review',
      name: 'Review',
      branches: [
        { id: 'fast', items: [codon('quick')] },
        { id: 'left', items: [codon('wait-left')] },
        { id: 'right', items: [codon('wait-right')] },
      ],
    },
    codon('report'),
  ],
};
const script = {
  conversations: [
    conversation('quick', [[write('quick.txt')]]),
    conversation('wait-left', [[waitFor('go-left')], [write('left.txt')]]),
    conversation('wait-right', [[waitFor('go-right')], [write('right.txt')]]),
    conversation('report', [[write('report.txt')]]),
  ],
};

type Snapshot = HankweaveEvent<'state.snapshot'>['data'];
const ids = (records: readonly unknown[] | undefined) =>
  (records ?? []).map((record) => (record as { codonId: string }).codonId);
const branchOf = (records: readonly unknown[], codonId: string) =>
  (
    records.find((record) => (record as { codonId: string }).codonId === codonId) as
      | { branch?: unknown }
      | undefined
  )?.branch;

describe('state.snapshot over WebSocket while a parallel block runs', () => {
  let world: AgentWorld | undefined;
  afterAll(async () => {
    await world?.close();
  });

  it('lists both running branch codons with their branches, then the completed branch codons', async () => {
    world = await makeAgentWorld({ hank, script });
    const runtime = world.runtime();
    await runtime.start();
    const server = await startWebSocketServer(runtime, { serverVersion: 'test' });
    const watcher = await connectTestClient(server.url, {
      token: server.token,
      mode: 'readonly',
      sendPreviousEvents: true,
    });
    // The codons run from start(): what came before the handshake is in its history.
    const events = () => [...watcher.handshake.eventHistory, ...watcher.seen];
    const snapshots = () =>
      events()
        .filter((event) => event.type === 'state.snapshot')
        .map((event) => event.data as Snapshot);
    const deadline = Date.now() + 120_000;
    let during: Snapshot | undefined;
    while (!during) {
      during = snapshots().find((snapshot) => ids(snapshot.completedCodons).includes('quick'));
      if (Date.now() > deadline)
        throw new Error(`no snapshot after quick; saw ${events().map((e) => e.type)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // Taken while both gated codons run: each listed once, with its branch, oldest first.
    const active = during.activeCodons ?? [];
    expect(ids(active).sort()).toEqual(['wait-left', 'wait-right']);
    expect(branchOf(active, 'wait-left')).toEqual({ blockId: 'review', branchId: 'left' });
    expect(branchOf(active, 'wait-right')).toEqual({ blockId: 'review', branchId: 'right' });
    const starts = active.map((record) => record.startTime);
    expect(starts).toEqual([...starts].sort());
    // The original's one field holds the first of them.
    expect(during.currentCodon).toMatchObject({ codonId: ids(active)[0] });
    expect(branchOf(during.completedCodons, 'quick')).toEqual({
      blockId: 'review',
      branchId: 'fast',
    });

    // A skip aimed at the finished codon stops nothing and names both that run.
    const driver = await connectTestClient(server.url, { token: server.token });
    const refused = await driver.send({ type: 'codon.skip', data: { codonId: 'quick' } });
    expect(refused?.data).toMatchObject({ code: 'RUNTIME_NO_CODON_RUNNING' });
    expect(refused?.data.message).toMatch(
      /^Codon quick is not running \((wait-left, wait-right|wait-right, wait-left) are\)/,
    );

    const tree = (branch: string) =>
      join(runtime.executionDir, 'branches', `review.${branch}`, 'agentRoot');
    writeFileSync(join(tree('left'), 'go-left'), '');
    writeFileSync(join(tree('right'), 'go-right'), '');
    expect(await runtime.finished).toMatchObject({ exitCode: 0 });
    await watcher.closed;

    // After the block (the last snapshot: after `report`): nothing runs, and the completed
    // branch codons are listed with their branches, then the merge and the codon after it.
    const last = snapshots().at(-1);
    expect(last?.activeCodons).toEqual([]);
    expect(last?.currentCodon ?? undefined).toBeUndefined();
    const completed = last?.completedCodons ?? [];
    expect(ids(completed).slice(0, 3).sort()).toEqual(['quick', 'wait-left', 'wait-right']);
    expect(ids(completed).slice(3)).toEqual(['review', 'report']);
    expect(branchOf(completed, 'wait-left')).toEqual({ blockId: 'review', branchId: 'left' });
    expect(branchOf(completed, 'report')).toBeUndefined();
  }, 240_000);
});
