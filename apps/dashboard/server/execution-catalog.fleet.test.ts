import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryJournal } from '@hankweave/journal';
import type { HankweaveState } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureHankweaveDir, fixtureState } from '../test/ui/fixture-state.js';
import { ExecutionCatalog, filesOf } from './execution-catalog.js';
import type { FleetRow, FleetSource } from './fleet-source.js';

/** The fleet database as the catalog sees it (the Postgres one is tested in fleet.int.test.ts). */
class StubFleet {
  rowsFail: Error | undefined;
  closed = false;
  constructor(readonly table: Map<string, { row: FleetRow; state: HankweaveState }>) {}
  async rows(): Promise<FleetRow[]> {
    if (this.rowsFail) throw this.rowsFail;
    return [...this.table.values()].map((entry) => entry.row);
  }
  reads: string[] = [];
  async read(id: string) {
    this.reads.push(id);
    return this.table.get(id);
  }
  async journal() {
    return createMemoryJournal();
  }
  async close() {
    this.closed = true;
  }
}

describe('ExecutionCatalog with a fleet', () => {
  let root: string;
  let baseDir: string;
  let elsewhere: string;
  let fleet: StubFleet;
  let catalog: ExecutionCatalog;

  /** A copy of a fixture execution at `dir`. */
  const execution = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    cpSync(fixtureHankweaveDir('failed'), join(dir, '.hankweave'), { recursive: true });
  };

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'hw-catalog-'));
    baseDir = join(root, 'base');
    elsewhere = join(root, 'shared', 'jobs');
    execution(join(baseDir, 'local-1'));
    execution(join(elsewhere, 'job-here'));
    const state = await fixtureState('retried');
    const row = (id: string, executionDir: string): FleetRow => ({
      id,
      executionDir,
      worker: 'w1:42',
      hankName: 'mirrored',
      updatedAt: '2026-11-28T20:00:00.000Z',
      version: 1,
    });
    fleet = new StubFleet(
      new Map([
        ['local-1', { row: row('local-1', join(baseDir, 'local-1')), state }],
        ['job-here', { row: row('job-here', join(elsewhere, 'job-here')), state }],
        ['job-gone', { row: row('job-gone', join(root, 'other-machine', 'job-gone')), state }],
      ]),
    );
    catalog = new ExecutionCatalog(baseDir, fleet as unknown as FleetSource);
  });
  afterEach(async () => {
    await catalog.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists the base directory, then the fleet executions it does not hold, once each', async () => {
    expect(await catalog.ids()).toEqual(['local-1', 'job-here', 'job-gone']);
  });

  it('reads an execution from its files wherever they are here, else from the database', async () => {
    await catalog.ids();
    const local = await catalog.facts('local-1');
    expect(local.dir).toBe(join(baseDir, 'local-1'));
    expect(local.fleet).toMatchObject({ worker: 'w1:42', files: true });
    // The files' state, not the database's.
    expect(local.state?.runs.map((run) => run.runId)).toEqual(
      (await fixtureState('failed')).runs.map((run) => run.runId),
    );

    const shared = await catalog.facts('job-here');
    expect(shared.dir).toBe(join(elsewhere, 'job-here'));
    expect(shared.fleet?.files).toBe(true);
    expect(filesOf(shared)).toBe(join(elsewhere, 'job-here'));

    const gone = await catalog.facts('job-gone');
    expect(gone.fleet).toMatchObject({ worker: 'w1:42', files: false });
    expect(gone.hankName).toBe('mirrored');
    expect(gone.state?.runs.map((run) => run.runId)).toEqual(
      (await fixtureState('retried')).runs.map((run) => run.runId),
    );
    expect(() => filesOf(gone)).toThrow(/ran on w1:42 in .*job-gone, which is not readable here/);
    expect(() => catalog.dirOf('job-gone')).toThrow(
      expect.objectContaining({ status: 404, code: 'EXECUTION_FILES_ELSEWHERE' }),
    );
  });

  it('re-reads a database-only state for a listing only when its version moved, always for a detail', async () => {
    const list = async () => {
      for (const id of await catalog.ids()) await catalog.facts(id, { listed: true });
    };
    await list();
    await list();
    expect(fleet.reads).toEqual(['job-gone']);
    await catalog.facts('job-gone');
    expect(fleet.reads).toEqual(['job-gone', 'job-gone']);
    const gone = fleet.table.get('job-gone');
    if (gone) gone.row = { ...gone.row, version: 2 };
    await list();
    expect(fleet.reads).toEqual(['job-gone', 'job-gone', 'job-gone']);
  });

  it('finds a fleet execution by a deep link before any listing', async () => {
    const gone = await catalog.facts('job-gone');
    expect(gone.fleet?.files).toBe(false);
    await expect(catalog.facts('no-such-thing')).rejects.toMatchObject({
      status: 404,
      code: 'EXECUTION_NOT_FOUND',
    });
  });

  it('says the fleet database does not answer instead of listing less', async () => {
    fleet.rowsFail = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    await expect(catalog.ids()).rejects.toMatchObject({
      status: 503,
      code: 'FLEET_UNREACHABLE',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('closes the fleet with the catalog', async () => {
    await catalog.close();
    expect(fleet.closed).toBe(true);
  });
});
