// The budget watchdog stops an agent that keeps spending (issue 18): how far past its limit a codon
// goes. One codon with `budget: {maxDollars, onExceeded: 'complete'}` runs the REAL Claude Code
// agent against the scripted model (offline), whose script is 200 tool-using turns of a known
// usage; the limit falls in the middle of turn 11 (10.5 turns' cost). Per trial: the codon's
// final cost, overshoot = final − limit, and overshoot / one turn's cost (target ≤ 1.0: the limit
// sits mid-turn, so the turn that crosses it contributes 0.5 by itself; each turn served after
// it adds 1.0). What the model actually served (what a provider would bill) is counted from the
// scripted model's requests, since a turn streamed but never logged costs money all the same.
// Pacing: 0 ms, and 200 ms per model answer (a loopback proxy delays each request). The same with
// `maxOutputTokens` at 10.5 turns' output tokens.
// Run: pnpm --filter @hankweave/runtime exec node bench/budget-overshoot.bench.mjs
//   (TRIALS=n for the number of trials per case, default 5.)

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startScriptedModel } from '@hankweave/scripted-model';
import { defaultModelCatalog, emptyTokenUsage } from '@hankweave/types';
import { createRuntime } from '../dist/index.js';
import { agentEnvOf } from './agent-env.mjs';
import { pacedProxy } from './paced-proxy.mjs';

const TRIALS = Number(process.env.TRIALS ?? 5);
const MODEL = 'claude-sonnet-4-5';
const TURNS = 200;
const USAGE = { inputTokens: 1000, outputTokens: 200 };
const TURN_COST = defaultModelCatalog.priceUsage(MODEL, {
  ...emptyTokenUsage(),
  ...USAGE,
}).cost;
// Mid-turn: crossing happens on turn 11 whatever the float rounding.
const LIMIT_TURNS = 10.5;
const MARKER = 'BUDGET_OVERSHOOT_BENCH';

const script = {
  conversations: [
    {
      match: { marker: MARKER },
      turns: Array.from({ length: TURNS }, (_, n) => ({
        content: [{ text: `step ${n}` }, { bash: { command: `echo step-${n}` } }],
        usage: USAGE,
      })),
    },
  ],
};

/** One trial: a fresh directory, model and runtime; the codon's figures when the run ends. */
async function trial({ currency, delayMs }) {
  const root = mkdtempSync(join(tmpdir(), 'budget-overshoot-'));
  const home = join(root, 'home');
  mkdirSync(home);
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data/in.txt'), 'x');
  const model = await startScriptedModel({ script });
  const proxy = delayMs > 0 ? await pacedProxy(model.url, delayMs) : undefined;
  const limit = currency === 'cost' ? LIMIT_TURNS * TURN_COST : LIMIT_TURNS * USAGE.outputTokens;
  const budget =
    currency === 'cost'
      ? { maxDollars: limit, onExceeded: 'complete' }
      : { maxOutputTokens: limit, onExceeded: 'complete' };
  const runtime = createRuntime({
    hank: {
      meta: { name: 'budget-overshoot', version: '1.0.0' },
      hank: [
        {
          id: 'spender',
          name: 'Spender',
          model: MODEL,
          continuationMode: 'fresh',
          promptText: `Keep working. ${MARKER}`,
          budget,
        },
      ],
    },
    hankDir: root,
    dataPath: join(root, 'data'),
    executionBaseDir: join(root, 'executions'),
    startNew: true,
    headless: true,
    anthropicBaseUrl: proxy?.url ?? model.url,
    env: agentEnvOf(home),
  });
  let completed;
  let liveOutput = 0;
  let liveCost = 0;
  let exceededAt;
  let stoppedAt;
  runtime.on((event) => {
    if (event.type === 'codon.completed') completed = event.data;
    if (event.type === 'token.usage' && !event.data.final) {
      liveOutput += event.data.outputTokens;
      liveCost += event.data.totalCost;
      const used = currency === 'cost' ? liveCost : liveOutput;
      if (exceededAt === undefined && used > limit) exceededAt = performance.now();
    }
    if (
      event.type === 'state.transition' &&
      event.data.transitionType === 'CodonTransitioned' &&
      event.data.transition.data.to === 'completed'
    )
      stoppedAt = performance.now();
  });
  const started = performance.now();
  await runtime.start();
  const exit = await runtime.finished;
  const elapsedMs = performance.now() - started;
  // The turns the model answered in the agent loop (side requests consume no turn); a retried
  // turn is served twice but billed once at most, so count distinct turn positions.
  const served = new Set(
    model.requests
      .filter((req) => !req.side && req.match && !req.error)
      .map((req) => req.match.turn),
  ).size;
  await proxy?.close();
  await model.close();
  rmSync(root, { recursive: true, force: true });
  const record = runtime.getState().runs[0]?.codons[0];
  // The state's record is the codon's final word; codon.completed carries the same cost.
  const finalCost = record?.finalCost ?? Number.NaN;
  const finalOutput = record?.finalTokens?.outputTokens ?? Number.NaN;
  if (Math.abs(finalCost - (completed?.cost ?? Number.NaN)) > 1e-12 || !(finalOutput >= 0))
    throw new Error(`inconsistent final figures: ${JSON.stringify({ record, completed })}`);
  const final = currency === 'cost' ? finalCost : finalOutput;
  const unit = currency === 'cost' ? TURN_COST : USAGE.outputTokens;
  return {
    currency,
    delayMs,
    exitCode: exit.exitCode,
    exceeded: completed?.budgetExceeded ?? null,
    limit,
    final,
    overshoot: final - limit,
    ratio: (final - limit) / unit,
    servedTurns: served,
    servedRatio: (served * unit - limit) / unit,
    stopMs: exceededAt !== undefined && stoppedAt !== undefined ? stoppedAt - exceededAt : NaN,
    elapsedMs,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const fmt = (value, currency) =>
  currency === 'cost' ? `$${value.toFixed(4)}` : `${value.toFixed(0)} tok`;

const cases = [
  { currency: 'cost', delayMs: 0 },
  { currency: 'cost', delayMs: 200 },
  { currency: 'outputTokens', delayMs: 0 },
];
const load = loadavg()[0].toFixed(2);
console.log(
  `\nBudget overshoot: real Claude Code on the scripted model, ${TURNS} tool-using turns of ` +
    `${USAGE.inputTokens} in + ${USAGE.outputTokens} out tokens of ${MODEL} ` +
    `(one turn = $${TURN_COST.toFixed(4)}), limit at ${LIMIT_TURNS} turns, ${TRIALS} trials per case, ` +
    `load ${load}`,
);
console.log(
  'case                 trial  limit        final        overshoot   ratio  served turns  served ratio  stop ms  run s',
);
let missed = false;
const summaries = [];
for (const kase of cases) {
  const results = [];
  for (let index = 0; index < TRIALS; index++) {
    const result = await trial(kase);
    results.push(result);
    const label = `${kase.currency} ${kase.delayMs}ms`.padEnd(20);
    console.log(
      `${label} ${String(index + 1).padStart(5)}  ${fmt(result.limit, kase.currency).padEnd(11)}  ` +
        `${fmt(result.final, kase.currency).padEnd(11)}  ${fmt(result.overshoot, kase.currency).padEnd(10)}  ` +
        `${result.ratio.toFixed(2).padStart(5)}  ${String(result.servedTurns).padStart(12)}  ` +
        `${result.servedRatio.toFixed(2).padStart(12)}  ${result.stopMs.toFixed(0).padStart(7)}  ${(result.elapsedMs / 1000).toFixed(1).padStart(5)}` +
        (result.exitCode !== 0 || !result.exceeded
          ? `  (exit ${result.exitCode}, budgetExceeded ${JSON.stringify(result.exceeded)})`
          : ''),
    );
  }
  const ratios = results.map((result) => result.ratio);
  const served = results.map((result) => result.servedRatio);
  const summary = {
    ...kase,
    medianRatio: median(ratios),
    maxRatio: Math.max(...ratios),
    medianServed: median(served),
    maxServed: Math.max(...served),
  };
  summaries.push(summary);
  if (summary.maxRatio > 1 || results.some((result) => !result.exceeded)) missed = true;
}
console.log(
  '\novershoot / one turn (target ≤ 1.00): recorded final cost; served = what the model answered',
);
for (const s of summaries) {
  console.log(
    `${`${s.currency} ${s.delayMs}ms`.padEnd(20)} median ${s.medianRatio.toFixed(2)}  max ${s.maxRatio.toFixed(2)}` +
      `   served: median ${s.medianServed.toFixed(2)}  max ${s.maxServed.toFixed(2)}`,
  );
}
console.log(
  missed
    ? 'TARGET MISSED: some trial went more than one turn past its limit (or was not stopped by the budget).'
    : 'target met: every trial stopped within one turn of its limit.',
);
console.log(`load average after: ${loadavg()[0].toFixed(2)}`);
