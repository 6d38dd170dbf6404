import { createReadStream, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { relativeInside } from '@hankweave/durable-io';
import {
  journalPath,
  openCheckpointsReadOnly,
  readExecutionState,
  readMeta,
} from '@hankweave/inspection';
import { executionLayout } from '@hankweave/runtime/layout';
import type { HankweaveState, RigOperation } from '@hankweave/types';
import { reachableInside } from './safe-remove.js';

/** One path of the plan, with why it is (or is not) hankweave's to remove. */
export interface CleanupItem {
  /** Absolute path. */
  path: string;
  /** The path relative to the execution directory, as shown. */
  shown: string;
  why: string;
}

/** Something a run did that removing files cannot undo. */
export interface Irreversible {
  codonId: string;
  what: string;
}

/** What `hankweave cleanup` would remove and keep, and what it cannot undo. */
export interface CleanupPlan {
  executionDir: string;
  /** In the order they are removed: the agent's files, rig copies, the data link, then state. */
  remove: CleanupItem[];
  /** Files in agentRoot that hankweave did not create (or cannot tell it did): left in place. */
  keep: CleanupItem[];
  irreversible: Irreversible[];
}

/** Files written within this long before the execution's creation time count as before it. */
const CLOCK_SLACK_MS = 2000;

/**
 * Works out the reset of an execution (the original's `--cleanup`): what hankweave created in
 * it, which is all this removes. That is its state directory `.hankweave/` (state, journal,
 * checkpoints, agent logs, sessions) and its backups, `rigArchive/`, the link to the data (or the
 * copy of it; the data itself is never touched), the rig copies of the codons that ran, and the
 * files of its checkpoints that were written during the execution. A tracked file older than
 * the execution existed before it and is kept, as is every file hankweave does not track.
 * Nothing is followed through a symlink. Reads only.
 */
export async function planCleanup(executionDir: string): Promise<CleanupPlan> {
  const layout = executionLayout(executionDir);
  const state = await readExecutionState(executionDir);
  const meta = await readMeta(executionDir);
  const since = meta ? Date.parse(meta.createdAt) - CLOCK_SLACK_MS : Number.NEGATIVE_INFINITY;
  const shown = (path: string) => relative(executionDir, path) || '.';
  const remove: CleanupItem[] = [];
  const keep: CleanupItem[] = [];
  const planned = new Set<string>();
  const add = (list: CleanupItem[], path: string, why: string) => {
    if (planned.has(path)) return;
    planned.add(path);
    list.push({ path, shown: shown(path), why });
  };
  const exists = (path: string) => lstatOrUndefined(path) !== undefined;

  for (const [file, codons] of await trackedFiles(executionDir)) {
    const path = join(layout.agentRoot, file);
    const stat = lstatOrUndefined(path);
    if (!stat || !reachableInside(executionDir, path)) continue;
    if (stat.mtimeMs >= since)
      add(remove, path, `written by ${codons.join(', ')} (in its checkpoints)`);
    else add(keep, path, 'existed before the execution (tracked, but not created by hankweave)');
  }
  for (const { codonId, to, from } of rigCopies(state)) {
    const inside = relativeInside(layout.agentRoot, to);
    if (inside === undefined || inside === '') continue;
    const path = join(layout.agentRoot, inside);
    if (exists(path) && reachableInside(executionDir, path))
      add(remove, path, `copied by the rig setup of ${codonId} (${from} → ${to})`);
  }
  const dataLink = lstatOrUndefined(layout.dataLink);
  if (dataLink)
    add(
      remove,
      layout.dataLink,
      dataLink.isSymbolicLink()
        ? 'the link to the data (the data itself is not touched)'
        : 'the copy of the data (--copy or inline input; the original is not touched)',
    );
  if (exists(layout.rigArchive))
    add(remove, layout.rigArchive, 'files archiveOnSuccess moved here');
  for (const name of safeReaddir(executionDir))
    if (name.startsWith('.hankweave.backup-'))
      add(remove, join(executionDir, name), 'a backup of the state a --start-new --force replaced');
  add(
    remove,
    layout.hankweaveDir,
    "hankweave's state: state.json, events, checkpoints, agent logs",
  );

  for (const path of untracked(layout.agentRoot, planned))
    add(keep, path, 'not tracked by hankweave (the agent may have written it): kept');
  return {
    executionDir,
    remove,
    keep,
    irreversible: [...rigCommands(state), ...(await agentCommands(executionDir))],
  };
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every file of every checkpoint, with the codons whose checkpoints hold it. */
async function trackedFiles(executionDir: string): Promise<Map<string, string[]>> {
  const files = new Map<string, string[]>();
  if (!existsSync(join(executionLayout(executionDir).checkpointsDir, '.hankweavecheckpoints')))
    return files;
  const engine = await openCheckpointsReadOnly(executionDir);
  try {
    for (const checkpoint of await engine.list()) {
      for (const file of await engine.files(checkpoint.sha)) {
        const codons = files.get(file.path) ?? [];
        if (checkpoint.codonId && !codons.includes(checkpoint.codonId))
          codons.push(checkpoint.codonId);
        files.set(file.path, codons);
      }
    }
  } finally {
    await engine.close();
  }
  return files;
}

/** The rig operations of every codon that ran, from the plan frozen in state. */
function ranOperations(state: HankweaveState): { codonId: string; operation: RigOperation }[] {
  const ran = new Set(state.runs.flatMap((run) => run.codons.map((codon) => codon.codonId)));
  return state.executionPlan
    .filter((entry) => ran.has(entry.codonId))
    .flatMap((entry) =>
      ((entry.codon as { rigSetup?: RigOperation[] }).rigSetup ?? []).map((operation) => ({
        codonId: entry.codonId,
        operation,
      })),
    );
}

function rigCopies(state: HankweaveState): { codonId: string; from: string; to: string }[] {
  return ranOperations(state).flatMap(({ codonId, operation }) =>
    operation.type === 'copy'
      ? [{ codonId, to: operation.copy.to, from: String(operation.copy.from) }]
      : [],
  );
}

function rigCommands(state: HankweaveState): Irreversible[] {
  return ranOperations(state).flatMap(({ codonId, operation }) =>
    operation.type === 'command'
      ? [{ codonId, what: `rig command \`${operation.command.run}\`` }]
      : [],
  );
}

/** The shell commands the agents ran (their effects outside the tracked files stay). */
async function agentCommands(executionDir: string): Promise<Irreversible[]> {
  const path = journalPath(executionDir);
  if (!existsSync(path)) return [];
  const found: Irreversible[] = [];
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.includes('"assistant.action"') || !line.includes('tool_use')) continue;
    try {
      const event = JSON.parse(line) as {
        data?: {
          action?: string;
          toolName?: string;
          toolInput?: { command?: unknown };
          codonId?: string;
        };
      };
      const command = event.data?.toolInput?.command;
      if (event.data?.action === 'tool_use' && typeof command === 'string')
        found.push({
          codonId: event.data.codonId ?? '?',
          what: `${event.data.toolName ?? 'tool'} \`${command}\``,
        });
    } catch {
      // A torn last line: skip it.
    }
  }
  return found;
}

/** Files and links under `root` that are not planned for removal (nor under a planned path). */
function untracked(root: string, planned: Set<string>): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of safeDirents(dir)) {
      const path = join(dir, entry.name);
      if (planned.has(path)) continue;
      if (entry.isDirectory() && !entry.isSymbolicLink()) walk(path);
      else found.push(path);
    }
  };
  walk(root);
  return found;
}

function safeDirents(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
