import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultExecutionBaseDir } from '@hankweave/runtime/layout';
import type { DynamicValues } from './value-sources.js';

/** How many of the newest executions are looked at to find the one for some data. */
const SCAN_LIMIT = 100;

/** The value of `-e`/`--execution` or `--data` among the words typed so far, if any. */
function flagValue(words: readonly string[], names: readonly string[]): string | undefined {
  for (let index = words.length - 2; index >= 0; index--) {
    const word = words[index] as string;
    if (names.includes(word)) return words[index + 1];
    for (const name of names.filter((flag) => flag.startsWith('--')))
      if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
  }
  const last = words.at(-1);
  for (const name of names.filter((flag) => flag.startsWith('--')))
    if (last?.startsWith(`${name}=`)) return last.slice(name.length + 1);
  return undefined;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The execution the words typed so far point at, found cheaply (no data hashing, which can read
 * megabytes): `-e <dir>`; else the newest execution whose recorded data path is `--data` (or the
 * current directory), or its `data/` folder; else the newest execution of all.
 */
export function executionForCompletion(
  words: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string | undefined {
  const explicit = flagValue(words, ['-e', '--execution']);
  if (explicit !== undefined) return resolve(cwd, explicit);
  const base = defaultExecutionBaseDir(env);
  let names: string[];
  try {
    // Managed execution names start with their creation time: newest first by name.
    names = readdirSync(base)
      .filter((name) => !name.startsWith('.'))
      .sort()
      .reverse()
      .slice(0, SCAN_LIMIT);
  } catch {
    return undefined;
  }
  const data = resolve(cwd, flagValue(words, ['--data']) ?? '.');
  const wanted = new Set([data, join(data, 'data')]);
  const withState = names
    .map((name) => join(base, name))
    .filter((dir) => existsSync(join(dir, '.hankweave', 'state.json')));
  for (const dir of withState) {
    const meta = readJson(join(dir, '.hankweave', 'execution-meta.json')) as
      | { readOnlySourceDataPath?: string; readOnlySourceResolvedDataPath?: string }
      | undefined;
    const paths = [meta?.readOnlySourceDataPath, meta?.readOnlySourceResolvedDataPath];
    if (paths.some((path) => path !== undefined && wanted.has(resolve(path)))) return dir;
  }
  return withState[0];
}

interface LooseState {
  runs?: { runId?: string; codons?: { codonId?: string }[] }[];
  executionPlan?: {
    codonId?: string;
    parallelContext?: { blockId?: string; role?: string; branchId?: string };
  }[];
}

/**
 * The words `hankweave __complete <kind>` prints, one per line: codon ids of the execution
 * (`codons`: plan entries, loop iterations `polish-pass#1` and their loop codon `polish-pass`;
 * `targets`: those, `last-success` and the branches, what rollback and diff take), its run ids
 * (`runs`), its parallel blocks' branches (`branches`: `review/left`), or the session keys of the
 * registry (`sessions`). Nothing when nothing is found: completion must
 * never print an error.
 */
export function dynamicValues(
  kind: DynamicValues,
  words: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string[] {
  if (kind === 'sessions') {
    // seed 004's registry, `<executions>/.claude/loop-sessions.json`.
    const registry = readJson(
      join(defaultExecutionBaseDir(env), '.claude', 'loop-sessions.json'),
    ) as { sessions?: Record<string, unknown> } | undefined;
    return Object.keys(registry?.sessions ?? {});
  }
  const dir = executionForCompletion(words, env, cwd);
  if (!dir) return [];
  const state = readJson(join(dir, '.hankweave', 'state.json')) as LooseState | undefined;
  if (!state) return [];
  if (kind === 'runs') return (state.runs ?? []).flatMap((run) => (run.runId ? [run.runId] : []));
  const branches = [
    ...new Set(
      (state.executionPlan ?? []).flatMap(({ parallelContext: p }) =>
        p?.role === 'branch' && p.blockId && p.branchId ? [`${p.blockId}/${p.branchId}`] : [],
      ),
    ),
  ];
  if (kind === 'branches') return branches;
  const ids = new Set<string>();
  const add = (id: string | undefined) => {
    if (!id) return;
    ids.add(id);
    // A loop iteration `polish-pass#1` is also matched by its codon id `polish-pass`.
    const loopCodon = /^(.+)#\d+$/.exec(id)?.[1];
    if (loopCodon) ids.add(loopCodon);
  };
  for (const entry of state.executionPlan ?? []) add(entry.codonId);
  for (const run of state.runs ?? []) for (const codon of run.codons ?? []) add(codon.codonId);
  const codons = [...ids];
  return kind === 'targets' ? ['last-success', ...codons, ...branches] : codons;
}
