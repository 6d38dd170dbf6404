// The shape of a synthetic execution, as plain data: which codon records exist, in which run,
// when each started and ended, and how it ended. Pure (no I/O, no clock, no randomness), so the
// same shape always gives the same execution and the cache key only needs the shape.
//
// The story: run 1 (fresh) goes through the `a` codons, a loop `refine` of one codon, then the
// `b` codons until one fails for good; every `retryEvery`-th codon fails once (retriable) and is
// retried. The user rolls back to after `a{rollbackAfter}` the next day: run 2 re-runs the rest of
// `a`, the whole loop, and every `b` codon, and completes. The number of `b` codons is what makes
// the total exactly `records`.

/** The big execution of the bench: 1,000 codon records, 1,000,000 events. */
export const BIG_SHAPE = Object.freeze({
  name: 'ui-bench-big',
  records: 1000,
  eventsPerRecord: 1000,
  plain: 400,
  loopIterations: 40,
  failAt: 100,
  rollbackAfter: 349,
  retryEvery: 20,
});

/** The baseline: the same story at the smallest scale that still has every feature. */
export const TINY_SHAPE = Object.freeze({
  name: 'ui-bench-tiny',
  records: 16,
  eventsPerRecord: 20,
  plain: 2,
  loopIterations: 2,
  failAt: 1,
  rollbackAfter: 0,
  retryEvery: 2,
});

const RUN1_START_MS = Date.parse('2026-01-05T09:00:00.000Z');
/** The rollback is continued the next day. */
const ROLLBACK_GAP_MS = 26 * 3600 * 1000;
const LOOP_ID = 'refine';

const plainId = (prefix, index) => `${prefix}${String(index).padStart(4, '0')}`;
const loopCodonId = (iteration) => `refine-pass#${iteration}`;
const loopContextOf = (iteration) => ({ loopId: LOOP_ID, iteration, codonIndexInLoop: 0 });

/** Deterministic spread of durations: 20 s to 2 min, gaps of 1 to 3 s. */
const durationMs = (ordinal) => 20_000 + ((ordinal * 7919) % 100) * 1000 + (ordinal % 7) * 137;
const gapMs = (ordinal) => 1000 + (ordinal % 3) * 1000;

/**
 * The codon records of a shape, oldest first: `{ run, codonId, loopContext?, outcome }` with
 * outcome `completed`, `retried` (failed, retriable; the next record is its retry) or `failed`
 * (failed for good; ends run 1). Throws when the shape cannot reach `records`.
 */
function recordSpecs(shape) {
  const specs = [];
  const isRetried = (index) => index % shape.retryEvery === shape.retryEvery >> 1;
  const attempt = (run, codonId, index, loopContext) => {
    const base = { run, codonId, ...(loopContext ? { loopContext } : {}) };
    if (isRetried(index)) specs.push({ ...base, outcome: 'retried' });
    specs.push({ ...base, outcome: 'completed' });
  };
  for (let index = 0; index < shape.plain; index++) attempt(0, plainId('a', index), index);
  for (let it = 0; it < shape.loopIterations; it++)
    attempt(0, loopCodonId(it), it, loopContextOf(it));
  for (let index = 0; index < shape.failAt; index++)
    specs.push({ run: 0, codonId: plainId('b', index), outcome: 'completed' });
  specs.push({ run: 0, codonId: plainId('b', shape.failAt), outcome: 'failed' });
  for (let index = shape.rollbackAfter + 1; index < shape.plain; index++)
    attempt(1, plainId('a', index), index);
  for (let it = 0; it < shape.loopIterations; it++)
    attempt(1, loopCodonId(it), it, loopContextOf(it));
  let bCount = 0;
  while (specs.length < shape.records)
    specs.push({ run: 1, codonId: plainId('b', bCount++), outcome: 'completed' });
  if (specs.length !== shape.records || bCount <= shape.failAt)
    throw new Error(`shape ${shape.name} cannot make exactly ${shape.records} records`);
  return { specs, bCount };
}

/** The hank's codon config of a plan entry, as the runtime stores it in `executionPlan`. */
function planCodon(id, name) {
  return {
    id,
    name,
    model: 'sonnet',
    continuationMode: 'fresh',
    promptText: `Work on ${name}. Keep notes in notes/.`,
    checkpointedFiles: ['notes/**/*.md'],
    onFailure: 'retry',
    retryConfig: { maxAttempts: 2, delayMs: 500, maxDelayMs: 60000 },
    maxExtensions: 100,
    autoCompact: false,
  };
}

/**
 * Everything the writers need: two runs (ids, start and end, how each started and ended), the
 * records with their times, and the execution plan (loop iterations expanded, as the runtime
 * keeps it).
 */
export function executionSchedule(shape) {
  const { specs, bCount } = recordSpecs(shape);
  const plan = [];
  for (let index = 0; index < shape.plain; index++)
    plan.push({
      codon: planCodon(plainId('a', index), `Step A${index}`),
      codonId: plainId('a', index),
    });
  for (let it = 0; it < shape.loopIterations; it++)
    plan.push({
      codon: planCodon('refine-pass', 'Refine the notes'),
      codonId: loopCodonId(it),
      loopContext: loopContextOf(it),
    });
  for (let index = 0; index < bCount; index++)
    plan.push({
      codon: planCodon(plainId('b', index), `Step B${index}`),
      codonId: plainId('b', index),
    });

  const runs = [0, 1].map((run) => ({
    runId: `${RUN1_START_MS + run * ROLLBACK_GAP_MS}-bench${run + 1}`,
    startMs: RUN1_START_MS + run * ROLLBACK_GAP_MS,
    endMs: 0,
  }));
  const records = [];
  const inRun = [0, 0];
  let clock = runs[0].startMs;
  let previousRun = 0;
  specs.forEach((spec, ordinal) => {
    if (spec.run !== previousRun) {
      clock = runs[spec.run].startMs;
      previousRun = spec.run;
    }
    const startMs = clock + 500;
    const endMs = startMs + durationMs(ordinal);
    const indexInRun = inRun[spec.run]++;
    records.push({ ...spec, ordinal, indexInRun, runId: runs[spec.run].runId, startMs, endMs });
    runs[spec.run].endMs = endMs + 200;
    clock = endMs + gapMs(ordinal);
  });
  const rollbackSource = plainId('a', shape.rollbackAfter);
  return { shape, runs, records, plan, rollbackSource };
}

/** The bar key (`{runId}~{index in run}`) of a record, as the dashboard's API names it. */
export const barKeyOf = (record) => `${record.runId}~${record.indexInRun}`;
