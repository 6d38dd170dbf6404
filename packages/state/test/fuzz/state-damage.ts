import { emptyState, type HankweaveState, type StateTransition } from '@hankweave/types';
import fc from 'fast-check';
import { replayTransitions } from '../../src/reducer/reduce-state.js';
import { codonLifecycle, makeTransition as t } from '../../src/testing/transitions.js';

// Not exported from the package: valid states, and the structural damage that loading repairs.

// biome-ignore lint/suspicious/noExplicitAny: damage works on untyped JSON, like a hand edit.
type Json = any;
type Path = (string | number)[];

const CODON_ENDS = [
  'preparing',
  'starting',
  'initializing',
  'running',
  'completed',
  'failed',
  'skipped',
] as const;
const TERMINAL_ENDS = ['completed', 'failed', 'skipped'] as const;
const RUN_ENDS = ['completed', 'failed', 'crashed'] as const;
const TERMINAL = new Set<string>(TERMINAL_ENDS);

/** What a generated state is made of: 2-4 runs, oldest first, each with 0-3 codons. */
export interface StateSpec {
  runs: { codons: number[]; end: number }[];
  /** The codon status the newest run ends its last codon in (any of the 7 lifecycle ends). */
  lastEnd: number;
  newestRunning: boolean;
  planSize: number;
}

export const stateSpecArb: fc.Arbitrary<StateSpec> = fc.record({
  runs: fc.array(
    fc.record({
      codons: fc.array(fc.nat(TERMINAL_ENDS.length - 1), { maxLength: 3 }),
      end: fc.nat(RUN_ENDS.length - 1),
    }),
    { minLength: 2, maxLength: 4 },
  ),
  lastEnd: fc.nat(CODON_ENDS.length - 1),
  newestRunning: fc.boolean(),
  planSize: fc.nat(3),
});

/**
 * A valid state built through the reducer: older runs end with terminal codons; the newest one
 * may still be running, its last codon in any status.
 */
export const buildState = (spec: StateSpec): HankweaveState => {
  const plan = Array.from({ length: spec.planSize }, (_, index) => ({
    codon: { id: `c${index}`, name: `Codon ${index}` },
    codonId: `c${index}`,
  }));
  const steps: StateTransition[] = [
    { type: 'ExecutionPlanUpdated', data: { executionPlan: plan } },
  ];
  spec.runs.forEach((run, index) => {
    const runId = `run-${index}`;
    const newest = index === spec.runs.length - 1;
    steps.push(t.runStarted(runId, { second: index * 100 }));
    run.codons.forEach((end, codon) => {
      steps.push(...codonLifecycle(runId, `c${codon}`, TERMINAL_ENDS[end] ?? 'completed'));
    });
    if (newest) {
      const last = CODON_ENDS[spec.lastEnd] ?? 'completed';
      steps.push(...codonLifecycle(runId, 'last', spec.newestRunning ? last : 'completed'));
      if (spec.newestRunning) return;
    }
    const end = RUN_ENDS[run.end] ?? 'completed';
    steps.push(
      end === 'completed'
        ? t.runCompleted(runId)
        : end === 'failed'
          ? t.runFailed(runId)
          : t.runCrashed(runId),
    );
  });
  return replayTransitions(emptyState(), steps);
};

const REQUIRED_BY_STATUS: Record<string, string[]> = {
  preparing: ['startTime'],
  starting: ['startTime', 'sentinels'],
  initializing: ['claudePid', 'claudeLogPath', 'sentinels'],
  running: ['claudeSessionId', 'currentCost', 'currentTokens', 'assistantMessageCount'],
  'completing-sentinels': ['claudeSessionId', 'currentCost', 'currentTokens'],
  completed: ['endTime', 'exitCode', 'finalCost', 'finalTokens', 'resultMessageReceived'],
  failed: ['endTime', 'failedDuring', 'exitCode', 'failureReason'],
  skipped: ['endTime', 'skippedDuring'],
};
const RUN_REQUIRED = ['runFolder', 'gitBranch', 'startingConditions', 'status', 'startTime'];
const NON_NEGATIVE = [
  'currentCost',
  'finalCost',
  'partialCost',
  'assistantMessageCount',
  'currentTokens.inputTokens',
  'finalTokens.outputTokens',
  'partialTokens.cacheReadTokens',
  'sentinels.totalCost',
  'sentinels.loaded.0.llmCallCount',
  'sentinels.executed.0.totalCost',
];
const INTEGERS = [
  'claudePid',
  'exitCode',
  'assistantMessageCount',
  'sentinels.loaded.0.totalTriggers',
];
const OPTIONAL = [
  'rigSetupCheckpoint',
  'previousSessionId',
  'completionCheckpoint',
  'errorCheckpoint',
  'skipCheckpoint',
  'partialCost',
  'extensionCount',
];

/** Every kind of structural damage that loading repairs (README "Recovery"). */
export const DAMAGE_KINDS = [
  'current-run-ghost',
  'current-run-not-a-string',
  'duplicate-run-id',
  'negative-number',
  'fractional-integer',
  'missing-required-field',
  'sentinels-misnamed',
  'optional-field-wrong-type',
  'run-status-unknown',
  'plan-broken',
] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];

const get = (root: Json, path: Path): Json =>
  path.reduce((value: Json, key) => (value == null ? undefined : value[key]), root);

/** Paths (from the root) of codon-record fields `fields` (dotted) that hold a value. */
const codonFields = (doc: Json, fields: string[], test: (value: Json) => boolean): Path[] => {
  const out: Path[] = [];
  doc.runs.forEach((run: Json, r: number) => {
    run.codons.forEach((_: Json, c: number) => {
      for (const field of fields) {
        const path: Path = [
          'runs',
          r,
          'codons',
          c,
          ...field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
        ];
        if (test(get(doc, path))) out.push(path);
      }
    });
  });
  return out;
};

const set = (doc: Json, path: Path, value: Json): void => {
  get(doc, path.slice(0, -1))[path.at(-1) as string | number] = value;
};
const drop = (doc: Json, path: Path): void => {
  delete get(doc, path.slice(0, -1))[path.at(-1) as string | number];
};
const isNumber = (value: Json): boolean => typeof value === 'number';

/** The places a damage kind can hit in `doc` (empty: not applicable to this document). */
const targets = (doc: Json, kind: DamageKind): Path[] => {
  switch (kind) {
    case 'current-run-ghost':
    case 'current-run-not-a-string':
      return [['currentRunId']];
    case 'duplicate-run-id':
      return doc.runs.length < 2
        ? []
        : doc.runs.slice(1).map((_: Json, i: number) => ['runs', i + 1, 'runId']);
    case 'negative-number':
      return codonFields(doc, NON_NEGATIVE, isNumber);
    case 'fractional-integer':
      return [
        ...doc.runs.map((_: Json, r: number) => ['runs', r, 'serverPid']),
        ...codonFields(doc, INTEGERS, isNumber),
      ];
    case 'missing-required-field': {
      const out: Path[] = [];
      doc.runs.forEach((run: Json, r: number) => {
        for (const field of RUN_REQUIRED) if (field in run) out.push(['runs', r, field]);
        run.codons.forEach((codon: Json, c: number) => {
          for (const field of REQUIRED_BY_STATUS[codon.status] ?? [])
            if (field in codon) out.push(['runs', r, 'codons', c, field]);
        });
      });
      return out;
    }
    case 'sentinels-misnamed': {
      // Only lists under the right key, so that a second damage never renames one back.
      const out: Path[] = [];
      doc.runs.forEach((run: Json, r: number) => {
        run.codons.forEach((codon: Json, c: number) => {
          const right = TERMINAL.has(codon.status) ? 'executed' : 'loaded';
          if (Array.isArray(codon.sentinels?.[right]))
            out.push(['runs', r, 'codons', c, 'sentinels']);
        });
      });
      return out;
    }
    case 'optional-field-wrong-type':
      return codonFields(doc, OPTIONAL, (value) => value !== undefined);
    case 'run-status-unknown':
      return doc.runs.map((_: Json, r: number) => ['runs', r, 'status']);
    case 'plan-broken':
      return [['executionPlan']];
  }
};

/** Applies one damage at target `pick` (modulo the targets); returns false if none applies. */
export const damage = (doc: Json, kind: DamageKind, pick: number): boolean => {
  const places = targets(doc, kind);
  const path = places[pick % Math.max(1, places.length)];
  if (path === undefined) return false;
  const value = get(doc, path);
  switch (kind) {
    case 'current-run-ghost':
      set(doc, path, 'ghost-run');
      break;
    case 'current-run-not-a-string':
      set(doc, path, pick % 2 === 0 ? 7 : { runId: 'run-0' });
      break;
    case 'duplicate-run-id':
      set(doc, path, doc.runs[(path[1] as number) - 1].runId);
      break;
    case 'negative-number':
      // Never undoes an earlier damage of the same field: the result is always negative.
      set(doc, path, -(Math.abs(value) + 1));
      break;
    case 'fractional-integer':
      set(doc, path, Math.floor(value) + 0.5);
      break;
    case 'missing-required-field':
      drop(doc, path);
      break;
    case 'sentinels-misnamed': {
      const [from, to] = Array.isArray(value.loaded)
        ? ['loaded', 'executed']
        : ['executed', 'loaded'];
      value[to] = value[from];
      delete value[from];
      break;
    }
    case 'optional-field-wrong-type':
      // An object is wrong for every field listed (strings and numbers).
      set(doc, path, { wrong: pick });
      break;
    case 'run-status-unknown':
      set(doc, path, 'paused');
      break;
    case 'plan-broken':
      if (doc.executionPlan.length > 0 && pick % 2 === 0) doc.executionPlan[0].codonId = '';
      else doc.executionPlan = { entries: doc.executionPlan };
      break;
  }
  return true;
};

/** One damage to apply: a kind (index into the applicable ones) and a target index. */
export const damageArb = fc.record({ kind: fc.nat(DAMAGE_KINDS.length - 1), pick: fc.nat(1000) });

/** Applies `damages` in order, each with the first applicable kind from its index on. */
export const applyDamages = (
  state: HankweaveState,
  damages: { kind: number; pick: number }[],
): { doc: Json; applied: DamageKind[] } => {
  const doc = JSON.parse(JSON.stringify(state));
  const applied: DamageKind[] = [];
  for (const { kind, pick } of damages) {
    for (let offset = 0; offset < DAMAGE_KINDS.length; offset++) {
      const candidate = DAMAGE_KINDS[(kind + offset) % DAMAGE_KINDS.length] as DamageKind;
      if (damage(doc, candidate, pick)) {
        applied.push(candidate);
        break;
      }
    }
  }
  return { doc, applied };
};
