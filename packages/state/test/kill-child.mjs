// Child of kill.int.test.ts: takes the lock, marks its dead predecessor's run crashed, starts a
// run, then applies transitions as fast as it can until the parent SIGKILLs it. After each
// flush() resolves it prints the progress that flush made durable. Imports the built package.
import { writeSync } from 'node:fs';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { acquireRuntimeLock, reduceState, StateStore } from '../dist/index.js';

const dir = process.argv[2];
const say = (line) => writeSync(1, `${line}\n`);
const now = () => new Date().toISOString();

// The parent starts the next child while the current one runs; it loads its modules (the slow
// part) and waits for "go" on stdin, which comes once its predecessor is dead and checked.
say('loaded');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();

const lock = await acquireRuntimeLock(dir, { heartbeatIntervalMs: 0 });
say(`locked ${lock.previous?.lock?.pid ?? 0}`);
const store = await StateStore.open(dir, { lock, logger: { warn: () => {} } });
const crashed = store.detectCrashedRuns();
const runId = `run-${store.state.runs.length}-${process.pid}`;
const previous = store.state.runs[0];
store.apply({
  type: 'RunStarted',
  data: {
    runId,
    runFolder: `${dir}/runs/${runId}`,
    gitBranch: `run-${runId}`,
    startingConditions: previous
      ? {
          type: 'continuation',
          source: { runId: previous.runId, afterCodon: null, checkpointSha: '' },
          reason: 'continue',
        }
      : { type: 'fresh' },
    serverPid: process.pid,
    startTime: now(),
  },
});
/** Progress of this run, comparable as a pair: (number of codon records, messages of the last). */
const progress = () => {
  const run = store.state.runs[0];
  const last = run.codons.at(-1);
  const messages =
    last === undefined
      ? -1
      : ['completed', 'failed', 'skipped'].includes(last.status)
        ? 1e9
        : (last.assistantMessageCount ?? -1);
  return `${run.codons.length} ${messages}`;
};

const applyAndReport = (transition) => {
  store.apply(transition);
  const key = progress();
  store.flush().then(
    () => say(`flushed ${runId} ${key}`),
    () => {},
  );
};

const tokens = { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 };
/** The transitions of one codon: start, three status changes, 25 cost + message updates, done. */
function* codonTransitions(forRun, codon) {
  const ref = { runId: forRun, codonId: `c${codon}` };
  const to = (from, next, metadata = {}) => ({
    type: 'CodonTransitioned',
    data: { ...ref, from, to: next, at: now(), metadata },
  });
  yield { type: 'CodonStarted', data: { ...ref, startTime: now() } };
  yield to('preparing', 'starting', { checkpointSha: 'rig' });
  yield to('starting', 'initializing', {
    claudePid: process.pid,
    claudeLogPath: `runs/${forRun}/${ref.codonId}-claude.log`,
  });
  yield to('initializing', 'running', { claudeSessionId: `s-${codon}` });
  for (let message = 1; message <= 25; message++) {
    yield { type: 'CostsIncremented', data: { ...ref, costDelta: 0.001, tokensDelta: tokens } };
    yield { type: 'AssistantMessageCountUpdated', data: { ...ref, newCount: message } };
  }
  yield to('running', 'completed', {
    exitCode: 0,
    resultMessageReceived: true,
    checkpointSha: 'done',
  });
}

// Warm the JIT on a scratch state first, so that kills land in the steady state of a server.
let scratch = reduceState(store.state, {
  type: 'RunStarted',
  data: {
    runId: 'warm-up',
    runFolder: 'w',
    gitBranch: 'w',
    startingConditions: { type: 'fresh' },
    serverPid: process.pid,
    startTime: now(),
  },
});
for (const transition of codonTransitions('warm-up', 0)) scratch = reduceState(scratch, transition);
JSON.stringify(scratch, null, 2);

await store.flush();
say(`flushed ${runId} 0 -1`);
// The parent's kill timer starts now: kills land while transitions stream in, not during startup
// (the early kills of the parent cover startup, lock takeover and crash detection).
say(`ready ${runId} ${crashed.join(',') || '-'}`);

for (let codon = 0; ; codon++) {
  let count = 0;
  for (const transition of codonTransitions(runId, codon)) {
    applyAndReport(transition);
    // Let saves run between bursts, as a server's event loop would.
    if (++count % 6 === 0) await yieldToIo();
  }
}
