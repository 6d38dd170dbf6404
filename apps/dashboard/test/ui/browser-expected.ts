import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { type RecordJson, type RunJson, recordCost, stateFile } from './executions.js';

// What the dashboard should show, worked out here from state.json, events.jsonl, the execution's
// meta and its hank by hand: never through the packages the server reads them with.

/** A codon record with the fields the browser tests also read. */
export interface FullRecordJson extends RecordJson {
  finalTokens?: { inputTokens: number; outputTokens: number };
  loopContext?: { loopId: string; iteration: number };
}

/** A run with its continuation source. */
export interface FullRunJson extends RunJson {
  startingConditions: RunJson['startingConditions'] & {
    source?: { runId: string; afterCodon: string | null; checkpointSha: string };
  };
  codons: FullRecordJson[];
}

/** One entry of the execution plan: the codon as the hank defines it. */
export interface PlanEntryJson {
  codonId: string;
  codon: {
    promptFile?: string;
    promptText?: string;
    rigSetup?: { type: string; copy?: { from: string; to: string } }[];
  };
}

export interface StateJson {
  runs: FullRunJson[];
  executionPlan: PlanEntryJson[];
  initialCheckpoint?: string;
}

/** state.json of an execution, parsed by hand (newest run first). */
export const fullState = (executionDir: string): StateJson =>
  stateFile(executionDir) as unknown as StateJson;

/** The codon records the execution stands on: the newest run's, after its sources' records. */
export function threadRecords(state: StateJson): FullRecordJson[] {
  const byId = new Map(state.runs.map((run) => [run.runId, run] as const));
  const walk = (run: FullRunJson): FullRecordJson[] => {
    const source = run.startingConditions.source;
    const origin = source === undefined ? undefined : byId.get(source.runId);
    if (source === undefined || origin === undefined) return run.codons;
    const before = walk(origin);
    const cut =
      source.afterCodon === null
        ? 0
        : before.findLastIndex((record) => record.codonId === source.afterCodon) + 1;
    return [...before.slice(0, cut), ...run.codons];
  };
  const newest = state.runs[0];
  return newest === undefined ? [] : walk(newest);
}

/** The newest status of each codon on the thread, counted, against the plan's length. */
export function threadCounts(state: StateJson) {
  const latest = new Map<string, string>();
  for (const record of threadRecords(state)) latest.set(record.codonId, record.status);
  const count = (status: string) => [...latest.values()].filter((s) => s === status).length;
  return {
    completed: count('completed'),
    failed: count('failed'),
    skipped: count('skipped'),
    planned: state.executionPlan.length,
  };
}

/**
 * The status of a stopped execution: its newest run's failure or crash, else `completed` when
 * every planned codon is done on the thread and `partial` when some is left.
 */
export function stoppedStatus(state: StateJson): string {
  const newest = state.runs[0];
  if (newest === undefined) return 'empty';
  if (newest.status === 'failed') return 'failed';
  if (newest.status === 'crashed' || newest.status === 'running') return 'crashed';
  const counts = threadCounts(state);
  return counts.completed + counts.skipped === counts.planned ? 'completed' : 'partial';
}

/** Every record's cost (seed 000: retried and rolled-back records count). */
export const executionCost = (state: StateJson): number =>
  state.runs.flatMap((run) => run.codons).reduce((total, record) => total + recordCost(record), 0);

/** A run's reason as the run tree names it: its starting reason, or `fresh`. */
export const runReason = (run: FullRunJson): string =>
  run.startingConditions.reason ??
  (run.startingConditions.type === 'fresh' ? 'fresh' : run.startingConditions.type);

/** Every checkpoint the records of state.json name (rig setup, completion, error, skip). */
export function recordedCheckpoints(state: StateJson): string[] {
  const shas = state.runs.flatMap((run) =>
    run.codons.flatMap((record) => [
      record.rigSetupCheckpoint,
      record.completionCheckpoint,
      record.errorCheckpoint,
      record.skipCheckpoint,
    ]),
  );
  return [...new Set(shas.filter((sha): sha is string => sha !== undefined))].sort();
}

/** The journal's events of one codon id (the tests' executions run each codon id once). */
export const codonEvents = (journal: HankweaveEvent[], codonId: string): HankweaveEvent[] =>
  journal.filter((event) => (event.data as { codonId?: string }).codonId === codonId);

/** The execution's hank folder, from execution-meta.json. */
export const hankDirOf = (executionDir: string): string =>
  dirname(
    (
      JSON.parse(readFileSync(join(executionDir, '.hankweave', 'execution-meta.json'), 'utf8')) as {
        hankPath: string;
      }
    ).hankPath,
  );

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * The files a codon execution changed, as `{path, status}` in code-unit order of path: what its rig setup
 * copied in (from the hank folder) and what its agent wrote (the journal's `file.updated` events
 * of its tool calls; the `codon-start` ones only list what was there).
 */
export function changedFiles(
  executionDir: string,
  entry: PlanEntryJson,
  journal: HankweaveEvent[],
): { path: string; status: string }[] {
  const files = new Map<string, string>();
  for (const step of entry.codon.rigSetup ?? []) {
    if (step.type !== 'copy' || step.copy === undefined) continue;
    for (const file of filesUnder(join(hankDirOf(executionDir), step.copy.from)))
      files.set(join(step.copy.to, file), 'added');
  }
  for (const event of codonEvents(journal, entry.codonId)) {
    if (event.type !== 'file.updated') continue;
    const data = event.data as { path: string; action: string; source?: { kind: string } };
    if (data.source?.kind === 'codon-start') continue;
    const status =
      data.action === 'created' ? 'added' : data.action === 'deleted' ? 'deleted' : 'modified';
    files.set(data.path, files.get(data.path) === 'added' ? 'added' : status);
  }
  return [...files.entries()]
    .map(([path, status]) => ({ path, status }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The prompt a codon was given, as the hank holds it: `promptText`, or the prompt file without
 * its front matter and with `<%DATA_DIR%>` pointing at the execution's read-only data.
 */
export function promptOf(executionDir: string, entry: PlanEntryJson): string {
  if (entry.codon.promptText !== undefined) return entry.codon.promptText;
  const file = readFileSync(
    join(hankDirOf(executionDir), entry.codon.promptFile ?? '(no prompt)'),
    'utf8',
  );
  const body = file.replace(/^---\n[\s\S]*?\n---\n/, '');
  return body
    .replaceAll('<%DATA_DIR%>', join(executionDir, 'agentRoot', 'read_only_data_source'))
    .trim();
}

/** Collapses runs of white space, so text compares as a reader sees it. */
export const words = (text: string): string => text.replace(/\s+/g, ' ').trim();
