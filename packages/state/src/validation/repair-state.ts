import { type HankweaveState, stateSchema } from '@hankweave/types';
import {
  isOptionalField,
  kindAt,
  misnamedSentinelList,
  type PathKey,
  REQUIRED_DEFAULTS,
  valueAt,
} from './repair-rules.js';
import { MAX_STATE_DEPTH, nestedDeeperThan, show, validateStructure } from './structure.js';

/** Every kind of repair made to a readable but structurally invalid state (README "Recovery"). */
export const STATE_REPAIR_KINDS = [
  'number-clamped',
  'field-dropped',
  'field-defaulted',
  'sentinels-renamed',
  'plan-reset',
  'current-run-reset',
  'duplicate-run-renamed',
] as const;

/** One of {@link STATE_REPAIR_KINDS}. */
export type StateRepairKind = (typeof STATE_REPAIR_KINDS)[number];

/** One repair made while loading a state file. */
export interface StateRepair {
  /** The file the repaired state came from. */
  file: 'state.json' | 'state.json.bak';
  /** Where in the file, e.g. `runs[0].codons[2].finalCost` (empty for the root). */
  path: string;
  kind: StateRepairKind;
  /** What was wrong and what was done, in one sentence. */
  message: string;
}

/** What {@link repairStructure} returns: the repaired state, or nothing when it cannot be. */
export interface RepairResult {
  state?: HankweaveState;
  repairs: Omit<StateRepair, 'file'>[];
}

/** Renders a path as `runs[0].codons[2].finalCost`. */
export const formatPath = (path: readonly PathKey[]): string =>
  path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
    )
    .join('');

// Each round fixes every issue zod reports; a fix can reveal issues below it (a defaulted object
// is checked field by field next round), so a few rounds are needed, never many.
const MAX_ROUNDS = 8;

type Issue = { code: string; path: PropertyKey[]; expected?: string; origin?: string };
/** A fix; `at` is the path it changes when not the issue's own (a rename changes its parent). */
type Fix = { kind: StateRepairKind; apply(): void; message: string; at?: PathKey[] };
type Container = Record<PathKey, unknown>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const setAt = (root: unknown, path: readonly PathKey[], value: unknown): void => {
  const parent = valueAt(root, path.slice(0, -1)) as Container;
  parent[path.at(-1) as PathKey] = value;
};

const dropAt = (root: unknown, path: readonly PathKey[]): void => {
  const parent = valueAt(root, path.slice(0, -1)) as Container;
  delete parent[path.at(-1) as PathKey];
};

/** The fix of a number out of its range: never negative, an integer where one is required. */
const numberFix = (root: unknown, issue: Issue, path: PathKey[]): Fix | undefined => {
  const value = valueAt(root, path);
  if (typeof value !== 'number') return undefined;
  const outOfRange = issue.code === 'too_small' && issue.origin === 'number';
  const notInteger = issue.code === 'invalid_type' && issue.expected === 'int';
  const notFinite = issue.code === 'invalid_type' && !Number.isFinite(value);
  if (!outOfRange && !notInteger && !notFinite) return undefined;
  const fixed = !Number.isFinite(value) || value < 0 ? 0 : Math.trunc(value);
  return {
    kind: 'number-clamped',
    apply: () => setAt(root, path, fixed),
    message: `was ${show(value)}, set to ${fixed} (costs and counts are finite, never negative, and whole where they count)`,
  };
};

/** The fix of a damaged field: rename, drop when optional, default when required. */
const fieldFix = (root: unknown, path: PathKey[]): Fix | undefined => {
  const parent = path.slice(0, -1);
  const key = path.at(-1) as PathKey;
  if (!isPlainObject(valueAt(root, parent))) return undefined;
  const value = valueAt(root, path);
  const was = value === undefined ? 'was missing' : `was ${show(value)}`;
  const other = misnamedSentinelList(root, parent, key);
  if (other !== undefined) {
    return {
      kind: 'sentinels-renamed',
      at: parent,
      apply: () => {
        setAt(root, path, valueAt(root, [...parent, other]));
        dropAt(root, [...parent, other]);
      },
      message: `the sentinel list was under '${other}'; moved to '${String(key)}' as the codon's status requires`,
    };
  }
  if (value !== undefined && isOptionalField(root, parent, key)) {
    return {
      kind: 'field-dropped',
      apply: () => dropAt(root, path),
      message: `${was}, not a valid value of this optional field; removed`,
    };
  }
  const makeDefault = REQUIRED_DEFAULTS[kindAt(parent)]?.[String(key)];
  if (makeDefault === undefined) return undefined;
  const fixed = makeDefault({ root, parent });
  return {
    kind: 'field-defaulted',
    apply: () => setAt(root, path, fixed),
    message: `${was}; set to ${JSON.stringify(fixed)}, the neutral value of this required field`,
  };
};

/** Drops the nearest optional object above `path` (a loopContext, budgetExceeded...). */
const ancestorFix = (root: unknown, path: PathKey[]): { fix: Fix; at: PathKey[] } | undefined => {
  for (let end = path.length - 1; end >= 1; end--) {
    const at = path.slice(0, end);
    const parent = at.slice(0, -1);
    if (!isPlainObject(valueAt(root, parent))) continue;
    if (!isOptionalField(root, parent, at.at(-1) as PathKey)) continue;
    return {
      at,
      fix: {
        kind: 'field-dropped',
        apply: () => dropAt(root, at),
        message: `its field '${formatPath(path.slice(end))}' was invalid and has no safe default; removed this optional object`,
      },
    };
  }
  return undefined;
};

/** The fix of one schema issue and the path it changes, or undefined when there is none. */
const fixIssue = (root: unknown, issue: Issue): { fix: Fix; at: PathKey[] } | undefined => {
  const path = issue.path as PathKey[];
  if (path[0] === 'executionPlan') {
    return {
      at: ['executionPlan'],
      fix: {
        kind: 'plan-reset',
        apply: () => setAt(root, ['executionPlan'], []),
        message:
          'the execution plan was invalid; emptied (the runtime rebuilds it from hank.json at the next start)',
      },
    };
  }
  if (path.length === 1 && path[0] === 'currentRunId') {
    return {
      at: path,
      fix: {
        kind: 'current-run-reset',
        apply: () => setAt(root, path, null),
        message: `was ${show(valueAt(root, path))}, not a run id; set to null`,
      },
    };
  }
  const direct = numberFix(root, issue, path) ?? fieldFix(root, path);
  return direct === undefined ? ancestorFix(root, path) : { fix: direct, at: direct.at ?? path };
};

const isUnder = (path: readonly PathKey[], prefix: readonly PathKey[]): boolean =>
  prefix.length <= path.length && prefix.every((key, index) => path[index] === key);

/** Renames every repeated run id but the newest (runs are newest first). */
const renameDuplicateRuns = (state: HankweaveState, repairs: RepairResult['repairs']): void => {
  const taken = new Set(state.runs.map((run) => run.runId));
  const seen = new Set<string>();
  state.runs.forEach((run, index) => {
    if (!seen.has(run.runId)) {
      seen.add(run.runId);
      return;
    }
    let suffix = 2;
    while (taken.has(`${run.runId}~${suffix}`)) suffix++;
    const renamed = `${run.runId}~${suffix}`;
    taken.add(renamed);
    repairs.push({
      path: formatPath(['runs', index, 'runId']),
      kind: 'duplicate-run-renamed',
      message: `run id '${show(run.runId)}' was used by a newer run too; this older run is now '${show(renamed)}' (its folder and records are unchanged)`,
    });
    run.runId = renamed;
  });
};

/**
 * Points currentRunId at an existing run: the newest one still running, else null (seed 000: the
 * active run, or null once its server stopped). `forced` when it was not a string at all.
 */
const resetCurrentRun = (
  state: HankweaveState,
  repairs: RepairResult['repairs'],
  forced: boolean,
): void => {
  const dangling =
    state.currentRunId !== null && !state.runs.some((run) => run.runId === state.currentRunId);
  if (!dangling && !forced) return;
  const running = state.runs.find((run) => run.status === 'running');
  const target =
    running === undefined
      ? 'null (no run is running)'
      : `'${show(running.runId)}', the newest running run`;
  if (dangling) {
    repairs.push({
      path: 'currentRunId',
      kind: 'current-run-reset',
      message: `'${show(state.currentRunId)}' names no run; set to ${target}`,
    });
  } else {
    const entry = repairs.find((repair) => repair.kind === 'current-run-reset');
    if (entry !== undefined)
      entry.message = `${entry.message.replace(/; set to null$/, '')}; set to ${target}`;
  }
  state.currentRunId = running?.runId ?? null;
};

/**
 * Repairs a parsed state.json that is readable but structurally invalid (README "Recovery"):
 * numbers out of range are clamped, invalid optional fields removed, missing required fields set
 * to neutral defaults, a misnamed sentinel list renamed, an invalid plan emptied, repeated run ids
 * made unique and a dangling `currentRunId` pointed at a real run. Every run and codon record is
 * kept. Returns no state when the data cannot be interpreted as a state (not an object, no `runs`
 * array, a run without an id, a record without an id or a known status...): such a file is
 * unreadable and recovery moves on to the backup. Deterministic, and never changes `data`.
 */
export const repairStructure = (data: unknown): RepairResult => {
  const unrepairable: RepairResult = { repairs: [] };
  if (!isPlainObject(data) || nestedDeeperThan(data, MAX_STATE_DEPTH)) return unrepairable;
  let work: unknown;
  try {
    work = JSON.parse(JSON.stringify(data));
  } catch {
    return unrepairable; // not JSON data (a BigInt, a cycle): not a state file's content
  }
  const repairs: RepairResult['repairs'] = [];
  let state: HankweaveState | undefined;
  for (let round = 0; ; round++) {
    const parsed = stateSchema.safeParse(work);
    if (parsed.success) {
      state = parsed.data;
      break;
    }
    if (round === MAX_ROUNDS) return unrepairable;
    const changed: PathKey[][] = [];
    for (const issue of parsed.error.issues as Issue[]) {
      // A fix above this path already replaced it: the next round sees what is left.
      if (changed.some((prefix) => isUnder(issue.path as PathKey[], prefix))) continue;
      const found = fixIssue(work, issue);
      if (found === undefined) return unrepairable;
      found.fix.apply();
      changed.push(found.at);
      repairs.push({
        path: formatPath(found.at),
        kind: found.fix.kind,
        message: found.fix.message,
      });
    }
  }
  const forced = repairs.some((repair) => repair.kind === 'current-run-reset');
  renameDuplicateRuns(state, repairs);
  resetCurrentRun(state, repairs, forced);
  // Defensive: a repaired state must pass the very check that loading applies.
  const check = validateStructure(state);
  if (check.state === undefined || check.errors.length > 0) return unrepairable;
  return { state: check.state, repairs };
};
