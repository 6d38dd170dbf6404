import {
  budgetExceededSchema,
  completedCodonSchema,
  completingSentinelsCodonSchema,
  emptyTokenUsage,
  executedSentinelsSchema,
  failedCodonSchema,
  failureReasonSchema,
  initializingCodonSchema,
  isTerminalCodonStatus,
  loadedSentinelsSchema,
  loopContextSchema,
  preparingCodonSchema,
  runningCodonSchema,
  runSchema,
  sentinelStateSchema,
  skippedCodonSchema,
  startingCodonSchema,
  stateSchema,
  tokenUsageSchema,
} from '@hankweave/types';

// Not exported from the package: where a damaged field sits, and the default of a required field
// that is missing or of the wrong type. The repair engine (repair-state.ts) applies them.

/** A key of a JSON path. */
export type PathKey = string | number;

/** What kind of object holds a field, found from the field's path. */
export type ParentKind =
  | 'state'
  | 'run'
  | 'start'
  | 'source'
  | 'codon'
  | 'loop'
  | 'tokens'
  | 'failure'
  | 'budget'
  | 'sentinels'
  | 'sentinel'
  | 'other';

/** The one timestamp used when a required time is lost and nothing better is at hand. */
export const EPOCH = '1970-01-01T00:00:00.000Z';

type FieldSchema = { safeParse(value: unknown): { success: boolean } };
type ObjectSchema = { shape: Record<string, FieldSchema> };

const CODON_SCHEMAS: Record<string, ObjectSchema> = {
  preparing: preparingCodonSchema,
  starting: startingCodonSchema,
  initializing: initializingCodonSchema,
  running: runningCodonSchema,
  'completing-sentinels': completingSentinelsCodonSchema,
  completed: completedCodonSchema,
  failed: failedCodonSchema,
  skipped: skippedCodonSchema,
};

const TOKEN_FIELDS = new Set(['currentTokens', 'finalTokens', 'partialTokens']);

/** The value at `path` in `root` (undefined when any step is missing). */
export const valueAt = (root: unknown, path: readonly PathKey[]): unknown => {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PathKey, unknown>)[key];
  }
  return current;
};

const isCodonPath = (path: readonly PathKey[]): boolean =>
  path.length === 4 &&
  path[0] === 'runs' &&
  typeof path[1] === 'number' &&
  path[2] === 'codons' &&
  typeof path[3] === 'number';

/** The kind of the object at `path` (the parent of a damaged field). */
export const kindAt = (path: readonly PathKey[]): ParentKind => {
  if (path.length === 0) return 'state';
  if (path[0] !== 'runs' || typeof path[1] !== 'number') return 'other';
  if (path.length === 2) return 'run';
  if (path[2] === 'startingConditions') {
    if (path.length === 3) return 'start';
    if (path.length === 4 && path[3] === 'source') return 'source';
    return 'other';
  }
  if (path[2] !== 'codons' || path.length < 4 || !isCodonPath(path.slice(0, 4))) return 'other';
  if (path.length === 4) return 'codon';
  const [field, list, index] = path.slice(4);
  if (path.length === 5) {
    if (field === 'loopContext') return 'loop';
    if (field === 'failureReason') return 'failure';
    if (field === 'budgetExceeded') return 'budget';
    if (field === 'sentinels') return 'sentinels';
    if (TOKEN_FIELDS.has(String(field))) return 'tokens';
    return 'other';
  }
  if (
    path.length === 7 &&
    field === 'sentinels' &&
    (list === 'loaded' || list === 'executed') &&
    typeof index === 'number'
  ) {
    return 'sentinel';
  }
  return 'other';
};

/** The status of the codon record that `path` lies in, when it has a known one. */
const codonStatusAt = (root: unknown, path: readonly PathKey[]): string | undefined => {
  const status = valueAt(root, [...path.slice(0, 4), 'status']);
  return typeof status === 'string' && status in CODON_SCHEMAS ? status : undefined;
};

/** The schema of the object at `path`, when it has one. */
const schemaAt = (root: unknown, path: readonly PathKey[]): ObjectSchema | undefined => {
  switch (kindAt(path)) {
    case 'state':
      return stateSchema;
    case 'run':
      return runSchema;
    case 'codon': {
      const status = codonStatusAt(root, path);
      return status === undefined ? undefined : CODON_SCHEMAS[status];
    }
    case 'loop':
      return loopContextSchema;
    case 'tokens':
      return tokenUsageSchema;
    case 'failure':
      return failureReasonSchema;
    case 'budget':
      return budgetExceededSchema;
    case 'sentinels': {
      const status = codonStatusAt(root, path);
      if (status === undefined) return undefined;
      return isTerminalCodonStatus(status) ? executedSentinelsSchema : loadedSentinelsSchema;
    }
    case 'sentinel':
      return sentinelStateSchema;
    default:
      // startingConditions is a union and its `source` has no exported schema: the defaults
      // below cover all their fields.
      return undefined;
  }
};

/** True when the field `key` of the object at `parent` may be absent. */
export const isOptionalField = (
  root: unknown,
  parent: readonly PathKey[],
  key: PathKey,
): boolean => {
  const field = schemaAt(root, parent)?.shape[String(key)];
  return field?.safeParse(undefined).success === true;
};

const nonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0;

/** What a default is computed from: the whole document and the parent object's path. */
interface DefaultContext {
  root: unknown;
  parent: readonly PathKey[];
}

const recordField = (context: DefaultContext, field: string): unknown =>
  valueAt(context.root, [...context.parent.slice(0, 4), field]);
const runField = (context: DefaultContext, field: string): unknown =>
  valueAt(context.root, [...context.parent.slice(0, 2), field]);

const sentinelSum = (context: DefaultContext): number => {
  const sentinels = valueAt(context.root, context.parent) as Record<string, unknown>;
  const list = Array.isArray(sentinels.loaded) ? sentinels.loaded : sentinels.executed;
  if (!Array.isArray(list)) return 0;
  const sum = list.reduce<number>(
    (total, sentinel) => total + (Number((sentinel as { totalCost?: unknown })?.totalCost) || 0),
    0,
  );
  return Number.isFinite(sum) && sum >= 0 ? sum : 0;
};

const SENTINEL_LISTS = { loaded: 'executed', executed: 'loaded' } as const;

type Default = (context: DefaultContext) => unknown;

/**
 * Defaults of required fields, by the kind of object that holds them. A field missing here has no
 * safe default (a run's `runId`, a record's `codonId` or `status`, a run's `codons`): the file is
 * then unreadable as a state and recovery falls back to state.json.bak.
 */
export const REQUIRED_DEFAULTS: Partial<Record<ParentKind, Record<string, Default>>> = {
  run: {
    runFolder: () => '',
    gitBranch: () => '',
    startingConditions: () => ({ type: 'fresh' }),
    // A run whose status is lost did not end normally, as far as anyone can tell.
    status: () => 'crashed',
    startTime: () => EPOCH,
    serverPid: () => 0,
  },
  start: {
    // Keep what can be kept: a record with a source object was a continuation.
    type: (context) =>
      typeof valueAt(context.root, [...context.parent, 'source']) === 'object'
        ? 'continuation'
        : 'fresh',
    source: () => ({ runId: '', afterCodon: null, checkpointSha: '' }),
  },
  source: { runId: () => '', afterCodon: () => null, checkpointSha: () => '' },
  codon: {
    startTime: (context) => {
      const runStart = runField(context, 'startTime');
      return nonEmptyString(runStart) ? runStart : EPOCH;
    },
    endTime: (context) => {
      const start = recordField(context, 'startTime');
      return nonEmptyString(start) ? start : EPOCH;
    },
    // 0 is never a live process (isPidAlive refuses it): nothing will be signalled.
    claudePid: () => 0,
    claudeLogPath: () => '',
    claudeSessionId: () => '',
    currentCost: () => 0,
    finalCost: () => 0,
    currentTokens: () => emptyTokenUsage(),
    finalTokens: () => emptyTokenUsage(),
    assistantMessageCount: () => 0,
    // -1 is what a crash records: the exit code is unknown.
    exitCode: () => -1,
    resultMessageReceived: () => false,
    failedDuring: () => 'running',
    skippedDuring: () => 'running',
    failureReason: () => ({
      type: 'unknown',
      retriable: false,
      message: 'The failure reason in state.json was unreadable; it was repaired on load.',
    }),
    sentinels: (context) => {
      const status = recordField(context, 'status');
      const list =
        typeof status === 'string' && isTerminalCodonStatus(status) ? 'executed' : 'loaded';
      return { [list]: [], totalCost: 0 };
    },
  },
  tokens: {
    inputTokens: () => 0,
    outputTokens: () => 0,
    cacheCreationTokens: () => 0,
    cacheReadTokens: () => 0,
  },
  failure: { type: () => 'unknown', retriable: () => false },
  sentinels: {
    loaded: () => [],
    executed: () => [],
    totalCost: sentinelSum,
  },
  sentinel: {
    id: () => '',
    model: () => '',
    loadedAt: () => EPOCH,
    llmCallCount: () => 0,
    failedLLMCalls: () => 0,
    totalTriggers: () => 0,
    totalCost: () => 0,
    status: () => 'unloaded',
  },
};

/**
 * When `sentinels.<key>` is missing but the other list is there (`loaded` in a terminal record,
 * `executed` in an active one), the name of that other list: seed 000 renames the array when a
 * codon ends, and a file written half-way through that rename has it under the wrong key.
 */
export const misnamedSentinelList = (
  root: unknown,
  parent: readonly PathKey[],
  key: PathKey,
): 'loaded' | 'executed' | undefined => {
  if (kindAt(parent) !== 'sentinels' || (key !== 'loaded' && key !== 'executed')) return undefined;
  const other = SENTINEL_LISTS[key];
  return Array.isArray(valueAt(root, [...parent, other])) ? other : undefined;
};
