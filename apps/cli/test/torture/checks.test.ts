import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrintedEvent } from './cli-lifetime.js';
import {
  checkAfterKill,
  checkpointShas,
  compareFiles,
  completionsIn,
  readJournal,
} from './invariants.js';
import { killProcessTree, processInfo } from './process-tree.js';
import { planOf } from './torture-run.js';

// The suite's own checkers must catch what they claim to: each is shown a broken execution.
const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'torture-checks-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const at = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const event = (id: string, type: string, second: number, data: object): PrintedEvent => ({
  id,
  type,
  timestamp: at(second),
  data: data as Record<string, unknown>,
});
const tokens = { inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0 };

/** An execution directory holding `state.json` with one run r1 and `events.jsonl` as given. */
function execution(codon: object, journal: string): string {
  const dir = tempDir();
  mkdirSync(join(dir, '.hankweave', 'events'), { recursive: true });
  const state = {
    runs: [
      {
        runId: 'r1',
        runFolder: join(dir, '.hankweave', 'runs', 'r1'),
        gitBranch: 'run-r1',
        startingConditions: { type: 'fresh' },
        codons: [{ codonId: 'a', startTime: at(1), ...codon }],
        status: 'running',
        startTime: at(0),
        serverPid: 1,
      },
    ],
    currentRunId: 'r1',
    executionPlan: [{ codon: { id: 'a', name: 'A' }, codonId: 'a' }],
  };
  writeFileSync(join(dir, '.hankweave', 'state.json'), JSON.stringify(state));
  writeFileSync(join(dir, '.hankweave', 'events', 'events.jsonl'), journal);
  return dir;
}

const lines = (...events: PrintedEvent[]): string =>
  events.map((each) => `${JSON.stringify(each)}\n`).join('');
const completedJournal = lines(
  event('evt_1', 'state.transition', 1, { codonId: 'a', runId: 'r1' }),
  event('evt_2', 'codon.completed', 2, { codonId: 'a', success: true }),
);

describe('the torture checkers', () => {
  it('finds an acknowledged completion that state.json does not have, and only then', async () => {
    const lost = await checkAfterKill(execution({ status: 'preparing' }, completedJournal), []);
    expect(lost.failures.map((failure) => [failure.invariant, failure.key])).toEqual([
      ['no-acknowledged-completion-lost', 'evt_2'],
    ]);
    expect(lost.failures[0]?.message).toMatch(/codon\.completed of a .*run r1.*preparing/);

    const kept = await checkAfterKill(
      execution(
        {
          status: 'completed',
          endTime: at(2),
          exitCode: 0,
          finalCost: 0,
          finalTokens: tokens,
          resultMessageReceived: true,
        },
        completedJournal,
      ),
      [],
    );
    expect(kept.failures).toEqual([]);
    expect(kept.checked).toBe(7);
  });

  it('counts completions printed on stdout that never reached the journal', async () => {
    const printed = completionsIn(
      [
        event('evt_9', 'state.transition', 1, { codonId: 'a', runId: 'r1' }),
        event('evt_10', 'codon.completed', 2, { codonId: 'a', success: true }),
        event('evt_11', 'codon.completed', 3, { codonId: 'b', success: false }),
      ],
      'stdout',
    );
    expect(printed).toEqual([{ eventId: 'evt_10', codonId: 'a', runId: 'r1', source: 'stdout' }]);
    const check = await checkAfterKill(execution({ status: 'preparing' }, ''), printed);
    expect(check.failures.map((failure) => failure.key)).toEqual(['evt_10']);
  });

  it('allows a torn last journal line only, and finds duplicate ids and time going back', async () => {
    const good = lines(event('evt_1', 'info', 1, {}), event('evt_2', 'info', 2, {}));
    const torn = execution({ status: 'preparing' }, `${good}{"id":"evt_3","ty`);
    expect(readJournal(torn)).toMatchObject({ badLines: [], tornTail: true });
    expect((await checkAfterKill(torn, [])).failures).toEqual([]);

    const broken = execution(
      { status: 'preparing' },
      `${good}{"id":"evt_3"\n${lines(event('evt_1', 'info', 3, {}), event('evt_4', 'info', 0, {}))}`,
    );
    const failures = (await checkAfterKill(broken, [])).failures;
    expect(failures.map((failure) => `${failure.invariant} ${failure.key}`)).toEqual([
      'journal-lines-parse line 3',
      'event-ids-unique evt_1',
      'timestamps-monotonic evt_4',
    ]);
  });

  it('rejects a state.json that does not validate, and names the checkpoints a state holds', async () => {
    const invalid = await checkAfterKill(execution({ status: 'no-such-status' }, ''), []);
    expect(invalid.failures.map((failure) => failure.invariant)).toEqual([
      'state-loads-and-validates',
    ]);
    const sha = 'a'.repeat(40);
    const missing = await checkAfterKill(
      execution({ status: 'preparing', rigSetupCheckpoint: sha }, ''),
      [],
    );
    expect(missing.failures.map((failure) => `${failure.invariant} ${failure.key}`)).toEqual([
      'checkpoints-exist no-repository',
    ]);
    expect([...checkpointShas({ initialCheckpoint: sha, executionPlan: [] })]).toEqual([
      [sha, 'initialCheckpoint'],
    ]);
  });

  it('compares the files of two runs by name and content', () => {
    const clean = new Map([
      ['ledger/a.md', 'one\n'],
      ['ledger/b.md', 'two\n'],
    ]);
    const after = new Map([
      ['ledger/a.md', 'one\none\n'],
      ['ledger/c.md', 'three\n'],
    ]);
    expect(compareFiles(clean, after).map((failure) => failure.message)).toEqual([
      'ledger/a.md differs: clean "one\\n", after the kills "one\\none\\n"',
      'ledger/b.md is missing after the kills',
      'ledger/c.md exists only after the kills',
    ]);
    expect(compareFiles(clean, new Map(clean))).toEqual([]);
  });
});

describe.skipIf(!existsSync('/proc/self/stat'))('the tree kill', () => {
  it('kills a process, its child in another session and that child’s child, and nothing else', async () => {
    // root → child (detached: its own session and process group, like an agent) → grandchild.
    const grandchild =
      "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })";
    const child = `const g = ${grandchild}; console.log(g.pid); setInterval(() => {}, 1000)`;
    const root = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
         c.stdout.once('data', (d) => console.log(c.pid + ' ' + String(d).trim()));
         setInterval(() => {}, 1000);`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const pids = await new Promise<number[]>((resolve) => {
      root.stdout.once('data', (data: Buffer) =>
        resolve(String(data).trim().split(' ').map(Number)),
      );
    });
    const all = [root.pid ?? -1, ...pids];
    expect(all.every((pid) => processInfo(pid) !== undefined)).toBe(true);
    expect(processInfo(pids[0] ?? -1)?.sid).not.toBe(processInfo(root.pid ?? -1)?.sid);

    const closed = new Promise((resolve) => root.on('close', resolve));
    const tree = await killProcessTree(root.pid ?? -1);
    await closed;
    expect(tree.pids).toEqual(expect.arrayContaining(all));
    for (const pid of all) expect(['Z', undefined]).toContain(processInfo(pid)?.state);
    expect(processInfo(process.pid)).toBeDefined();
  });
});

describe('the schedule', () => {
  it('is the same for the same seed, and the plan splits kills as documented', () => {
    const first = seededRandom(42);
    const second = seededRandom(42);
    const draws = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => second())).toEqual(draws);
    expect(draws.every((draw) => draw >= 0 && draw < 1)).toBe(true);
    expect(planOf(400)).toEqual({
      completion: 100,
      rollback: 25,
      checkpoint: 25,
      transition: 25,
      tool: 25,
      random: 200,
    });
    expect(planOf(7)).toEqual({
      completion: 2,
      rollback: 1,
      checkpoint: 1,
      transition: 0,
      tool: 0,
      random: 3,
    });
  });
});
