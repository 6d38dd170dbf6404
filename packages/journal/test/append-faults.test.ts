import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, type FaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { Durability } from '../src/backends/file/append-queue.js';
import { createFileJournal } from '../src/create-journal.js';
import { JOURNAL_ERROR_CODES, JournalError } from '../src/errors.js';
import type { EventJournal } from '../src/event-journal.js';
import { parseEventLine } from '../src/internal/parse-line.js';
import { collect } from '../src/testing/conformance-context.js';
import { infoEvent } from '../src/testing/sample-events.js';

// The file backend under the fault-injecting fs at every step of open (with a torn tail to
// repair), append, appendMany, concurrent appends and close. A crash: after reopening with the
// real fs, every acknowledged event is there exactly once, in order, and no line but a torn last
// one is malformed (the reopen repairs it). An I/O error (ENOSPC, EIO): the failing call rejects
// with a coded error, and the journal either goes on working or refuses every later append with
// a coded error; nothing acknowledged is lost either way.

const PRE = 5;
const dirs: { cleanup(): Promise<void> }[] = [];
/** Steps exercised, and how throw-mode runs ended, printed for RELIABILITY.md. */
const report: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => dir.cleanup()));
  process.stdout.write(`[journal faults] ${report.join('; ')}\n`);
});

const event = (id: string) => ({ id, ...infoEvent(Number(id.replace(/\D/g, '')) || 0) });

/** A journal with PRE events and a torn last line, written with the real fs. */
const prepare = async (): Promise<string> => {
  const dir = await makeTempDir('journal-faults-');
  dirs.push(dir);
  const path = join(dir.path, 'events', 'events.jsonl');
  const journal = await createFileJournal({ path });
  await journal.appendMany(Array.from({ length: PRE }, (_, i) => event(`evt_pre${i}`)));
  await journal.close();
  await appendFile(path, '{"id":"evt_torn","type":"info","timest');
  return path;
};

interface Run {
  /** Ids in the order they were handed to the journal. */
  attempted: string[];
  /** Ids in the order their appends resolved. */
  acked: string[];
  /** Ids whose append rejected, and whether the same journal then still listed them. */
  rejected: { id: string; visible: boolean }[];
  errors: unknown[];
  /** How the run went on after its first failure. */
  after: 'no failure' | 'open failed' | 'usable' | 'refusing' | 'nothing after it';
}

/** Opens, appends in every way the journal offers, and closes, through `fs`. */
const workload = async (path: string, fs: FaultyFs, durability: Durability): Promise<Run> => {
  const run: Run = { attempted: [], acked: [], rejected: [], errors: [], after: 'no failure' };
  let journal: EventJournal;
  try {
    journal = await createFileJournal({ path, fs, durability, batchIntervalMs: 1 });
  } catch (error) {
    run.errors.push(error);
    run.after = 'open failed';
    return run;
  }
  const settle = async (ids: string[], call: () => Promise<unknown>): Promise<void> => {
    run.attempted.push(...ids);
    const failedBefore = run.errors.length > 0;
    try {
      await call();
      run.acked.push(...ids);
      if (failedBefore) run.after = 'usable';
    } catch (error) {
      run.errors.push(error);
      if (failedBefore && run.after !== 'usable') run.after = 'refusing';
      if (!failedBefore) run.after = 'nothing after it';
      const listed: string[] = await collect(journal.getAllEvents()).then(
        (events) => events.map((stored) => stored.id),
        () => [],
      );
      for (const id of ids) run.rejected.push({ id, visible: listed.includes(id) });
    }
  };
  await settle(['evt_1'], () => journal.append(event('evt_1')));
  await settle(['evt_2', 'evt_3', 'evt_4'], () =>
    journal.appendMany(['evt_2', 'evt_3', 'evt_4'].map(event)),
  );
  // Concurrent callers: queued in call order, acknowledged in that order.
  await Promise.all(
    ['evt_5', 'evt_6', 'evt_7'].map((id) => settle([id], () => journal.append(event(id)))),
  );
  await settle(['evt_8'], () => journal.append(event('evt_8')));
  await journal.close().catch((error: unknown) => {
    run.errors.push(error);
    if (run.after === 'no failure') run.after = 'nothing after it';
  });
  return run;
};

/** What is on disk, read with the real fs, and the journal reopened on it. */
const reopen = async (path: string) => {
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  // Every complete line is an event; only the last one may be torn.
  lines.slice(0, -1).forEach((line, index) => {
    expect(parseEventLine(line, index), `line ${index + 1}: ${line}`).toBeDefined();
  });
  const journal = await createFileJournal({ path });
  const ids = (await collect(journal.getAllEvents())).map((stored) => stored.id);
  const stats = await journal.stats();
  expect(stats.corruptLines).toBe(0);
  expect(await readFile(path, 'utf8')).toMatch(/(^|\n)$/);
  // The reopened journal takes new appends.
  await journal.append(event('evt_after'));
  expect((await journal.getMostRecentEvents(1)).events[0]?.id).toBe('evt_after');
  await journal.close();
  return ids;
};

/** Every acked id once, in order; nothing twice; nothing out of the attempted order. */
const checkIds = (ids: string[], run: Run): void => {
  expect(ids.slice(0, PRE)).toEqual(Array.from({ length: PRE }, (_, i) => `evt_pre${i}`));
  const added = ids.slice(PRE);
  expect(new Set(added).size).toBe(added.length);
  const positions = added.map((id) => run.attempted.indexOf(id));
  expect(positions.every((position) => position >= 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(added.filter((id) => run.acked.includes(id))).toEqual(run.acked);
};

const expectCoded = (error: unknown): void => {
  expect(JournalError.is(error), `not a JournalError: ${String(error)}`).toBe(true);
  expect(JOURNAL_ERROR_CODES).toContain((error as JournalError).code);
};

/** Runs the workload with the fault at step k = 0, 1, ... until a run never reaches it. */
const everyStep = async (
  durability: Durability,
  fault: (step: number) => Parameters<FaultyFs['arm']>[0],
  check: (path: string, fs: FaultyFs, run: Run) => Promise<void>,
): Promise<number> => {
  for (let step = 0; step < 500; step++) {
    const path = await prepare();
    const fs = createFaultyFs({ trace: false });
    fs.arm(fault(step));
    const run = await workload(path, fs, durability);
    await check(path, fs, run);
    if (!fs.faulted) {
      expect(run.errors).toEqual([]);
      expect(run.acked).toEqual(run.attempted);
      return step;
    }
  }
  throw new Error('the workload still reached the fault after 500 steps');
};

describe('file journal under faults at every step', () => {
  for (const durability of ['fsync', 'batched', 'none'] as const) {
    it(`${durability}: a crash keeps every acknowledged event once, in order`, async () => {
      const steps = await everyStep(
        durability,
        (step) => ({ failAt: 'any', after: step, mode: 'crash' }),
        async (path, _fs, run) => {
          for (const error of run.errors) expectCoded(error);
          const ids = await reopen(path);
          checkIds(ids, run);
          // Writes stop at the crash: what reached the file is a prefix of what was attempted.
          expect(ids.slice(PRE)).toEqual(run.attempted.slice(0, ids.length - PRE));
        },
      );
      report.push(`${durability} crash: ${steps} steps`);
    });

    for (const code of durability === 'fsync' ? ['ENOSPC', 'EIO'] : ['ENOSPC']) {
      it(`${durability}: ${code} fails one call with a coded error, the journal goes on or refuses`, async () => {
        const outcomes = new Map<string, number>();
        const steps = await everyStep(
          durability,
          (step) => ({ failAt: 'any', after: step, mode: 'throw', code }),
          async (path, _fs, run) => {
            for (const error of run.errors) expectCoded(error);
            outcomes.set(run.after, (outcomes.get(run.after) ?? 0) + 1);
            // A rejected append is not listed by the journal that rejected it, unless its fsync
            // failed: then the journal refuses every later append (README "Errors").
            if (run.rejected.some((entry) => entry.visible)) expect(run.after).not.toBe('usable');
            checkIds(await reopen(path), run);
          },
        );
        report.push(
          `${durability} ${code}: ${steps} steps (${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')})`,
        );
      });
    }
  }
});
