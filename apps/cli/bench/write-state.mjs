// Writes the state.json of a schedule through the state package's own writer: `StateStore.apply`
// of the transitions the runtime makes for each codon record (start, the status steps, costs,
// checkpoints, the end), then `validateState` on what landed on disk. No hand-written state.
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StateStore, validateState } from '@hankweave/state';

const iso = (ms) => new Date(ms).toISOString();

/** A stable fake git sha: the checkpoints are never read by the bench. */
export const shaOf = (...parts) => createHash('sha1').update(parts.join(':')).digest('hex');

/** What a record cost, and its tokens: one model call per four events (see write-journal). */
export function recordUsage(record, eventsPerRecord) {
  const calls = Math.max(1, Math.floor((eventsPerRecord - 2) / 4));
  const perCall = 0.0021 + (record.ordinal % 5) * 0.0003;
  return {
    calls,
    perCall,
    cost: Math.round(calls * perCall * 1e6) / 1e6,
    tokens: {
      inputTokens: calls * 2400,
      outputTokens: calls * 90,
      cacheCreationTokens: 0,
      cacheReadTokens: calls * 1800,
    },
  };
}

/** The transitions of one codon record, in the order the runtime applies them. */
function recordTransitions(record, schedule, executionDir) {
  const { runId, codonId, startMs, endMs, ordinal } = record;
  const ref = { runId, codonId };
  const at = (fraction) => iso(startMs + Math.floor((endMs - startMs) * fraction));
  const usage = recordUsage(record, schedule.shape.eventsPerRecord);
  const step = (from, to, when, metadata = {}) => ({
    type: 'CodonTransitioned',
    data: { ...ref, from, to, at: when, metadata },
  });
  const transitions = [
    {
      type: 'CodonStarted',
      data: {
        ...ref,
        startTime: iso(startMs),
        ...(record.loopContext ? { loopContext: record.loopContext } : {}),
      },
    },
    step('preparing', 'starting', at(0.001)),
    step('starting', 'initializing', at(0.002), {
      claudePid: 40_000 + ordinal,
      claudeLogPath: join(
        executionDir,
        '.hankweave',
        'runs',
        runId,
        `${codonId.replace('#', '_')}-claude.log`,
      ),
    }),
    step('initializing', 'running', at(0.003), { claudeSessionId: `session-${ordinal}` }),
    { type: 'AssistantMessageCountUpdated', data: { ...ref, newCount: usage.calls } },
    {
      type: 'CostsIncremented',
      data: { ...ref, costDelta: usage.cost, tokensDelta: usage.tokens },
    },
  ];
  const branch = `run-${runId}`;
  if (record.outcome === 'completed') {
    const sha = shaOf(schedule.shape.name, ordinal, 'completed');
    transitions.push(
      {
        type: 'CodonFinalCostSet',
        data: { ...ref, finalCost: usage.cost, finalTokens: usage.tokens },
      },
      { type: 'CheckpointCreated', data: { ...ref, checkpointType: 'completed', sha, branch } },
      step('running', 'completed', iso(endMs), {
        exitCode: 0,
        resultMessageReceived: true,
        contextExceeded: false,
        checkpointSha: sha,
      }),
    );
  } else {
    const sha = shaOf(schedule.shape.name, ordinal, 'error');
    const retriable = record.outcome === 'retried';
    transitions.push(
      { type: 'CheckpointCreated', data: { ...ref, checkpointType: 'error', sha, branch } },
      step('running', 'failed', iso(endMs), {
        exitCode: 1,
        resultMessageReceived: true,
        contextExceeded: !retriable,
        checkpointSha: sha,
        failedDuring: 'running',
        failureReason: retriable
          ? { type: 'api-error', retriable: true, message: 'API Error: 500 Internal server error' }
          : {
              type: 'api-error',
              retriable: false,
              message: 'API invalid request: Prompt is too long',
            },
      }),
    );
  }
  return transitions;
}

/** The completion sha of the last record of a codon in run 1 (where the rollback goes back to). */
function rollbackCheckpoint(schedule) {
  const source = schedule.records.findLast(
    (record) => record.run === 0 && record.codonId === schedule.rollbackSource,
  );
  return shaOf(schedule.shape.name, source.ordinal, 'completed');
}

/**
 * Writes `{executionDir}/.hankweave/state.json` for the schedule through a `StateStore`, then
 * reads it back and refuses it unless `validateState` finds it valid.
 */
export async function writeState(schedule, executionDir) {
  const hankweaveDir = join(executionDir, '.hankweave');
  await mkdir(hankweaveDir, { recursive: true });
  const store = await StateStore.open(hankweaveDir, { onUnrecoverable: 'throw' });
  const [run1, run2] = schedule.runs;
  const runStarted = (run, startingConditions) => ({
    type: 'RunStarted',
    data: {
      runId: run.runId,
      runFolder: join(hankweaveDir, 'runs', run.runId),
      gitBranch: `run-${run.runId}`,
      startingConditions,
      serverPid: 30_000,
      startTime: iso(run.startMs),
    },
  });
  const initialSha = shaOf(schedule.shape.name, 'initial');
  store.apply({ type: 'InitialCheckpointSet', data: { sha: initialSha } });
  store.apply(runStarted(run1, { type: 'fresh', initialCheckpointSha: initialSha }));
  store.apply({ type: 'ExecutionPlanUpdated', data: { executionPlan: schedule.plan } });
  let currentRun = 0;
  for (const record of schedule.records) {
    if (record.run !== currentRun) {
      store.apply({
        type: 'RunFailed',
        data: { runId: run1.runId, endTime: iso(run1.endMs), reason: 'codon failure' },
      });
      store.apply(
        runStarted(run2, {
          type: 'continuation',
          source: {
            runId: run1.runId,
            afterCodon: schedule.rollbackSource,
            checkpointSha: rollbackCheckpoint(schedule),
          },
          reason: 'rollback',
        }),
      );
      currentRun = record.run;
    }
    for (const transition of recordTransitions(record, schedule, executionDir))
      store.apply(transition);
  }
  store.apply({ type: 'RunCompleted', data: { runId: run2.runId, endTime: iso(run2.endMs) } });
  await store.close();

  const written = JSON.parse(await readFile(join(hankweaveDir, 'state.json'), 'utf8'));
  const validation = await validateState(written, { hankweaveDir });
  if (!validation.valid)
    throw new Error(
      `the generated state is invalid: ${JSON.stringify(validation.errors.slice(0, 3))}`,
    );
  const records = written.runs.reduce((sum, run) => sum + run.codons.length, 0);
  if (records !== schedule.records.length)
    throw new Error(`state.json holds ${records} records, the schedule ${schedule.records.length}`);
  return { records, warnings: validation.warnings.length };
}
