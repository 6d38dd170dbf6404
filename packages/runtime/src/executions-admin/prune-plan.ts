import { realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularTextFile, relativeInside } from '@hankweave/durable-io';
import {
  parseSessionKey,
  type SessionEntry,
  type SessionLayout,
  type SessionStatus,
  selectPrunable,
} from '@hankweave/sessions';
import { executionMetaSchema } from '@hankweave/types';
import { LAYOUT_ENTRIES } from '../execution/execution-meta.js';
import { executionLayout } from '../execution/layout.js';
import { measurePath, pathExists } from './measure-path.js';

/** What kind of thing a pruned path is. */
export type PrunePathKind =
  | 'execution'
  | 'backup'
  | 'agent-config'
  | 'loop-state'
  | 'pipeline-run'
  | 'progress';

/** One path prune removes (or would), with the bytes it holds. */
export interface PrunePath {
  path: string;
  /** Apparent bytes; an execution's count leaves out its backups, listed on their own. */
  bytes: number;
  kind: PrunePathKind;
  /**
   * For an execution: what of it hankweave created, and so what prune removes. `entries`: the
   * names inside it; `directory`: the directory itself, removed only when it is empty after
   * that. A user's own file beside an execution (`-e <dir> --force`) is never removed.
   */
  created?: { entries: string[]; directory: boolean };
}

/** A path prune would have removed but keeps, and why. */
export interface PruneSkip {
  path: string;
  reason: string;
}

export interface PrunePlan {
  keys: string[];
  paths: PrunePath[];
  skipped: PruneSkip[];
  /** The sessions each path belongs to (several sessions may name one execution). */
  owners: Map<string, string[]>;
}

export interface PlanOptions {
  olderThanMs: number;
  statuses: readonly SessionStatus[];
  executions: boolean;
  now: Date;
  /** Whether a live runtime holds an execution (never removed then). */
  isLive: (executionDir: string) => Promise<boolean>;
}

const BACKUP_PREFIX = '.hankweave.backup-';
const DRY_RUN_MARK = 'hankweave-dry-run-';
const FILE_SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * Decides what a prune removes, measuring each path; touches nothing. Loop sessions follow their
 * pipeline (selected with it, kept with it); a session's state files in `.claude/` go with it;
 * with `executions`, so do the execution directory it names, the backups inside it and a dry
 * run's agent config dir, unless a session that stays still references them.
 */
export async function planPrune(
  sessions: Record<string, SessionEntry>,
  layout: SessionLayout,
  options: PlanOptions,
): Promise<PrunePlan> {
  const keys = selectedKeys(sessions, options);
  const chosen = new Set(keys);
  const staying = Object.entries(sessions).filter(([key]) => !chosen.has(key));
  const plan: PrunePlan = { keys, paths: [], skipped: [], owners: new Map() };
  const add = async (
    path: string,
    kind: PrunePathKind,
    owners: string[],
    exclude?: ReadonlySet<string>,
  ) => {
    if (plan.owners.has(path) || !(await pathExists(path))) return;
    plan.owners.set(path, owners);
    plan.paths.push({ path, kind, bytes: await measurePath(path, exclude) });
  };
  const ownersOf = (field: 'execution_dir' | 'agent_config_dir', path: string) =>
    keys.filter((key) => {
      const value = sessions[key]?.[field];
      return typeof value === 'string' && resolve(value) === path;
    });

  for (const key of keys) {
    const entry = sessions[key];
    const { session } = parseSessionKey(key);
    // Keys written by other tools may hold anything (`..`, slashes): only a file-safe name
    // stands for files, so nothing outside its own place in .claude/ is ever touched.
    if (!FILE_SAFE_NAME.test(session) || session === '.' || session === '..') continue;
    const own =
      entry?.type === 'pipeline'
        ? [[layout.pipelineDir(session), 'pipeline-run'] as const]
        : [[layout.loopStateFile(session), 'loop-state'] as const];
    for (const [path, kind] of [...own, [layout.progressFile(session), 'progress'] as const]) {
      if (strictlyInside(layout.claudeDir, path)) await add(path, kind, [key]);
    }
  }
  if (!options.executions) return plan;

  const referenced = (field: 'execution_dir' | 'agent_config_dir', path: string) =>
    staying.some(([, entry]) => typeof entry[field] === 'string' && resolve(entry[field]) === path);
  for (const dir of unique(keys.map((key) => sessions[key]?.execution_dir))) {
    const refusal = await executionRefusal(dir, layout.projectDir, options.isLive);
    if (refusal || referenced('execution_dir', dir)) {
      plan.skipped.push({ path: dir, reason: refusal ?? 'a session that stays still uses it' });
      continue;
    }
    const backups = (await readdir(dir))
      .filter((name) => name.startsWith(BACKUP_PREFIX))
      .map((name) => join(dir, name));
    const owners = ownersOf('execution_dir', dir);
    const created = await createdByHankweave(dir, layout.projectDir);
    if (!plan.owners.has(dir)) {
      plan.owners.set(dir, owners);
      let bytes = 0;
      for (const name of created.entries) bytes += await measurePath(join(dir, name));
      plan.paths.push({ path: dir, kind: 'execution', bytes, created });
    }
    for (const backup of backups) await add(backup, 'backup', owners);
  }
  for (const dir of unique(keys.map((key) => sessions[key]?.agent_config_dir))) {
    if (!dir.includes(DRY_RUN_MARK) || !insideTmp(dir)) {
      plan.skipped.push({ path: dir, reason: 'not a dry run’s config dir under the temp dir' });
    } else if (referenced('agent_config_dir', dir)) {
      plan.skipped.push({ path: dir, reason: 'a session that stays still uses it' });
    } else {
      await add(dir, 'agent-config', ownersOf('agent_config_dir', dir));
    }
  }
  return plan;
}

/** selectPrunable, with loop sessions following their pipeline when it is in the registry. */
function selectedKeys(sessions: Record<string, SessionEntry>, options: PlanOptions): string[] {
  const selected = selectPrunable(sessions, {
    olderThanMs: options.olderThanMs,
    statuses: options.statuses,
    now: options.now,
  });
  const hasPipeline = (entry: SessionEntry | undefined) =>
    entry?.type === 'loop' && typeof entry.parent === 'string' && entry.parent in sessions;
  const keys = selected.filter((key) => !hasPipeline(sessions[key]));
  for (const key of [...keys]) {
    if (sessions[key]?.type !== 'pipeline') continue;
    for (const [child, entry] of Object.entries(sessions)) {
      if (entry.type === 'loop' && entry.parent === key && entry.status !== 'running')
        keys.push(child);
    }
  }
  return keys;
}

/** Why an execution directory named by an entry must not be removed, or undefined. */
async function executionRefusal(
  dir: string,
  projectDir: string,
  isLive: (dir: string) => Promise<boolean>,
): Promise<string | undefined> {
  if (!isAbsolute(dir)) return 'not an absolute path';
  if (relativeInside(dir, projectDir) !== undefined) return 'it holds the session registry itself';
  if (!(await pathExists(dir))) return 'already gone';
  if (!(await pathExists(executionLayout(dir).metaFile)))
    return 'no .hankweave/execution-meta.json: not a hankweave execution';
  if (await isLive(dir)) return 'a live runtime holds its runtime.lock';
  return undefined;
}

// A managed execution's name: `{timestamp}-{random4}-{dataHash6}` (see prepareExecution).
const MANAGED_NAME = /^\d+-[0-9a-f]{4}-[0-9a-f]{6}$/;

/** The `created` record of an execution-meta.json, read alone (the rest may be anything). */
async function recordedCreation(
  metaFile: string,
): Promise<{ entries: string[]; directory: boolean } | undefined> {
  try {
    const meta = JSON.parse(await readRegularTextFile(metaFile, { maxBytes: 1_000_000 })) as {
      created?: unknown;
    };
    const created = executionMetaSchema.shape.created.parse(meta.created);
    return created === undefined
      ? undefined
      : { entries: created.entries, directory: created.directory };
  } catch {
    return undefined;
  }
}

/**
 * What of an execution directory hankweave created: its `created` record in execution-meta.json;
 * without one (the original's executions, ours before the record), the layout's own names, and
 * the directory itself only for a managed execution (hankweave made the name).
 */
async function createdByHankweave(
  dir: string,
  baseDir: string,
): Promise<{ entries: string[]; directory: boolean }> {
  const recorded = await recordedCreation(executionLayout(dir).metaFile);
  const managed = resolve(dirname(dir)) === resolve(baseDir) && MANAGED_NAME.test(basename(dir));
  const entries = (recorded?.entries ?? LAYOUT_ENTRIES).filter(
    (name) => FILE_SAFE_NAME.test(name) && name !== '.' && name !== '..',
  );
  // `.hankweave` holds the record itself and is always hankweave's.
  return {
    entries: entries.includes('.hankweave') ? entries : [...entries, '.hankweave'],
    directory: recorded?.directory ?? managed,
  };
}

function insideTmp(dir: string): boolean {
  const tmp = resolve(tmpdir());
  if (strictlyInside(tmp, dir)) return true;
  try {
    // /tmp may be a symlink (macOS: /var → /private/var); compare the real paths too.
    return strictlyInside(realpathSync(tmp), realpathSync(dir));
  } catch {
    return false;
  }
}

const strictlyInside = (root: string, path: string): boolean => {
  const rel = relativeInside(root, path);
  return rel !== undefined && rel !== '';
};

const unique = (values: readonly (string | null | undefined)[]): string[] => [
  ...new Set(
    values.filter((value): value is string => typeof value === 'string').map((v) => resolve(v)),
  ),
];
