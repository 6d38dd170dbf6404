import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readState } from '@hankweave/state';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// A state.json that still reads but breaks a structural rule holds acknowledged history: the
// runtime must keep and repair it, never replace it with the backup or a fresh state.
describe('a structurally damaged state.json at start', () => {
  let world: TestWorld;
  let executionDir: string;
  let firstRunId: string;
  let completedBefore: string[];
  let events: HankweaveEvent[];

  beforeAll(async () => {
    world = await makeWorld();
    const first = runtimeFor(world);
    await first.runtime.start();
    executionDir = first.runtime.executionDir;
    expect((await first.runtime.finished).exitCode).toBe(0);
    const statePath = join(executionDir, '.hankweave', 'state.json');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    firstRunId = state.runs[0].runId;
    completedBefore = state.runs[0].codons.map((codon: { codonId: string }) => codon.codonId);
    state.currentRunId = 'no-such-run';
    writeFileSync(statePath, JSON.stringify(state, null, 2));
    const second = runtimeFor(world, { executionDir });
    events = second.events;
    await second.runtime.start();
    await second.runtime.finished;
  }, 180_000);
  afterAll(() => world.close());

  it('keeps every run it holds, repaired, and keeps the damaged file beside it', async () => {
    const { state, recovery } = await readState(join(executionDir, '.hankweave'));
    expect(recovery.source).toBe('primary');
    const run = state.runs.find((candidate) => candidate.runId === firstRunId);
    expect(run?.codons.map((codon) => codon.codonId)).toEqual(completedBefore);
    const aside = readdirSync(join(executionDir, '.hankweave')).filter((name) =>
      name.startsWith('state.json.corrupt-'),
    );
    expect(aside).toHaveLength(1);
    expect(
      JSON.parse(readFileSync(join(executionDir, '.hankweave', aside[0] as string), 'utf8')),
    ).toMatchObject({ currentRunId: 'no-such-run' });
  });

  it('journals the repair as a warning that names the field', () => {
    const warnings = events.filter(
      (event) => event.type === 'error' && event.data.code === 'STATE_REPAIRED',
    ) as HankweaveEvent<'error'>[];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.data).toMatchObject({ severity: 'warning', fatal: false });
    expect(warnings[0]?.data.message).toContain('currentRunId');
  });
});
