import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { branchFilter } from '../commands/checkpoints.js';
import { statusCommand } from '../commands/status.js';
import { dynamicValues } from '../completion/dynamic-values.js';
import { codonRows } from './codon-rows.js';
import type { CliEvent } from './describe-event.js';
import { branchCodonRef, codonsOfLane, laneCodonLabel, laneLabel, lanesOf } from './lanes.js';
import { LiveView } from './live-view.js';
import { formatRow, rowLayout } from './row-format.js';
import { PlainView } from './run-view.js';
import type { Terminal } from './terminal.js';
import { parallelState } from './test-parallel-state.js';

const plain = (text: string) => text;
function recordingTerminal(): Terminal & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    isTTY: false,
    color: false,
    columns: 120,
    out: (line = '') => lines.push(line),
    err: (line = '') => lines.push(line),
    write: (text) => lines.push(text),
    style: { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain },
  };
}
const style = recordingTerminal().style;

describe('lanes of a parallel block', () => {
  it('labels a branch codon block/branch, the resolver and the merge by role', () => {
    expect(laneLabel({ blockId: 'review', role: 'branch', branchId: 'left' })).toBe('review/left');
    expect(laneLabel({ blockId: 'review', role: 'resolver' })).toBe('review resolver');
    expect(laneLabel({ blockId: 'review', role: 'merge' })).toBe('review merge');
  });

  it('prefixes a branch codon with its branch, escaping control characters', () => {
    expect(laneCodonLabel('plan', undefined)).toBe('plan');
    expect(laneCodonLabel('style', { blockId: 'review', role: 'branch', branchId: 'left' })).toBe(
      '[review/left] style',
    );
    expect(laneCodonLabel('review', { blockId: 'review', role: 'merge' })).toBe('review (merge)');
    expect(
      laneCodonLabel('x\u001b[2J', { blockId: 'b\u0007', role: 'branch', branchId: 'l' }),
    ).toBe('[b\\x07/l] x\\x1b[2J');
  });

  it('finds a branch by block/branch, or by its id alone when only one block has it', () => {
    const lanes = lanesOf(parallelState());
    expect(codonsOfLane(lanes, 'review/left')).toEqual(['style']);
    expect(codonsOfLane(lanes, 'right')).toEqual(['tests']);
    expect(codonsOfLane(lanes, 'review merge')).toEqual(['review']);
    expect(codonsOfLane(lanes, 'middle')).toBeUndefined();
    lanes.set('other', { blockId: 'second', role: 'branch', branchId: 'left' });
    expect(codonsOfLane(lanes, 'left')).toBeUndefined();
    expect(codonsOfLane(lanes, 'second/left')).toEqual(['other']);
  });
});

describe('branch names where codon ids are taken', () => {
  it('diff: a branch stands for its newest codon on the thread, keeping a :type', () => {
    const state = parallelState();
    expect(branchCodonRef('review/left', state)).toBe('style');
    expect(branchCodonRef('right:start', state)).toBe('tests:start');
    // Codon ids, shas and the merge are left as they are.
    expect(branchCodonRef('plan', state)).toBeUndefined();
    expect(branchCodonRef('review', state)).toBeUndefined();
    expect(branchCodonRef('review merge', state)).toBeUndefined();
    expect(branchCodonRef('4d48bad', state)).toBeUndefined();
  });

  it('checkpoints --branch keeps the codons of that branch and refuses an unknown one', () => {
    const inLeft = branchFilter(parallelState(), 'review/left');
    expect(['plan', 'style', 'tests', 'review'].filter(inLeft)).toEqual(['style']);
    expect(() => branchFilter(parallelState(), 'review/middle')).toThrow(
      /No branch "review\/middle"/,
    );
  });
});

describe('codon rows of a parallel block', () => {
  it('carry their lane, and the rows show it as a column (blank outside blocks)', () => {
    const rows = codonRows(parallelState());
    expect(rows.map((row) => row.lane ?? '-')).toEqual([
      '-',
      'review/left',
      'review/right',
      'review merge',
      '-',
    ]);
    expect(rows[2]?.parallel).toEqual({ blockId: 'review', role: 'branch', branchId: 'right' });
    const layout = rowLayout(rows);
    const lines = rows.map((row) => formatRow(row, style, { layout, columns: 200, now: 0 }));
    expect(lines[0]).toMatch(/^✓ {15}plan /);
    expect(lines[1]).toMatch(/^✓ review\/left {3}style /);
    expect(lines[2]).toMatch(/^• review\/right {2}tests /);
    expect(lines[3]).toMatch(/^· review merge {2}review +Review/);
  });

  it('have no lane column when the plan has no parallel block', () => {
    const state = parallelState();
    state.executionPlan = state.executionPlan.filter((entry) => !entry.parallelContext);
    const rows = codonRows(state);
    expect(rowLayout(rows).laneWidth).toBe(0);
    expect(formatRow(rows[0] as never, style, { layout: rowLayout(rows), columns: 200 })).toMatch(
      /^✓ plan /,
    );
  });
});

describe('PlainView with a parallel block', () => {
  const event = (type: string, data: unknown): CliEvent =>
    ({ id: 'evt_1', type, timestamp: '2026-11-30T01:00:10.000Z', data }) as CliEvent;

  it('prefixes the interleaved lines of concurrent branches with their branch', () => {
    const recorded = recordingTerminal();
    const state = parallelState();
    const view = new PlainView(recorded, 0, Date.now, () => state);
    view.onEvent(event('codon.started', { codonId: 'style', codonName: 'Codon style' }));
    view.onEvent(event('codon.started', { codonId: 'tests', codonName: 'Codon tests' }));
    view.onEvent(event('codon.started', { codonId: 'ship', codonName: 'Codon ship' }));
    const [style, tests, ship] = recorded.lines.map((line) => line.slice(9));
    expect(style).toMatch(/^\[review\/left\] style /);
    expect(tests).toMatch(/^\[review\/right\] tests /);
    expect(ship).toMatch(/^ship {13}/);
  });
});

describe('LiveView with a parallel block', () => {
  it('draws one line per codon, several active at once, each with its lane', () => {
    const recorded = recordingTerminal();
    const state = parallelState();
    // Both branches running at once.
    const run = state.runs[0];
    const tests = run?.codons[2];
    if (!run || !tests) throw new Error('fixture: a run with plan, style and tests');
    run.codons[1] = { ...tests, codonId: 'style' };
    const view = new LiveView(
      recorded,
      () => state,
      () => 120,
    );
    view.started('/tmp/x');
    view.stop();
    const drawn = recorded.lines.join('').split('\n');
    expect(drawn.some((line) => / review\/left {3}style .* running$/.test(line))).toBe(true);
    expect(drawn.some((line) => / review\/right {2}tests .* running$/.test(line))).toBe(true);
    expect(drawn.some((line) => /· review merge {2}review /.test(line))).toBe(true);
  });
});

describe('hankweave status with a parallel block', () => {
  afterEach(() => cleanupTempDirs());

  async function executionWithState(): Promise<string> {
    const dir = (await makeTempDir('status-parallel-')).path;
    await mkdir(join(dir, '.hankweave'), { recursive: true });
    await writeFile(join(dir, '.hankweave', 'state.json'), JSON.stringify(parallelState()));
    return dir;
  }

  it('shows each codon with its block/branch, the merge row as the block merge', async () => {
    const terminal = recordingTerminal();
    expect(await statusCommand(terminal, { execution: await executionWithState() })).toBe(0);
    const text = terminal.lines.join('\n');
    expect(text).toMatch(/ {2}✓ review\/left {3}style /);
    expect(text).toMatch(/ {2}• review\/right {2}tests /);
    expect(text).toMatch(/ {2}· review merge {2}review /);
    // The runtime is not running: the active branch codon is named with its branch.
    expect(text).toMatch(/Next codon +\(review\/right: tests was running when its runtime died/);
  });

  it("--json carries each codon row's parallel context and lane (additive)", async () => {
    const terminal = recordingTerminal();
    await statusCommand(terminal, { execution: await executionWithState(), json: true });
    const parsed = JSON.parse(terminal.lines.join('')) as {
      codons: { codonId: string; lane?: string; parallel?: unknown }[];
    };
    const byId = new Map(parsed.codons.map((row) => [row.codonId, row]));
    expect(byId.get('plan')?.parallel).toBeUndefined();
    expect(byId.get('style')).toMatchObject({
      lane: 'review/left',
      parallel: { blockId: 'review', role: 'branch', branchId: 'left' },
    });
    expect(byId.get('review')).toMatchObject({
      lane: 'review merge',
      parallel: { blockId: 'review', role: 'merge' },
    });
  });
});

describe('completion of branch names', () => {
  afterEach(() => cleanupTempDirs());

  it('offers the branches of the execution for --branch, and with the rollback targets', async () => {
    const dir = (await makeTempDir('complete-branches-')).path;
    await mkdir(join(dir, '.hankweave'), { recursive: true });
    await writeFile(join(dir, '.hankweave', 'state.json'), JSON.stringify(parallelState()));
    const words = ['events', '-e', dir];
    expect(dynamicValues('branches', words, {}, dir)).toEqual(['review/left', 'review/right']);
    expect(dynamicValues('targets', words, {}, dir)).toEqual(
      expect.arrayContaining(['last-success', 'style', 'review/left', 'review/right']),
    );
    expect(dynamicValues('codons', words, {}, dir)).not.toContain('review/left');
  });
});
