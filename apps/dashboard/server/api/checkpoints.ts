import type { CheckpointEngine, DiffEntry } from '@hankweave/checkpoints';
import {
  type CommandLine,
  openCheckpointsReadOnly,
  resolveCheckpointRef,
} from '@hankweave/inspection';
import type { HankweaveState } from '@hankweave/types';
import type { RawQuery, Routes } from '../../src/api/routes.js';
import type { CheckpointWire, DiffWire, FileChange } from '../../src/api/types.js';
import { HttpError } from '../http/http-error.js';

/** Text larger than this (per side) is left out of a diff, with a note. */
export const DIFF_TEXT_LIMIT = 256 * 1024;
/** At most this many files of a diff carry their text; the rest carry a note. */
export const DIFF_TEXT_FILES = 200;

/** Runs `read` on the execution's checkpoint repository, opened read-only (as the CLI does). */
export async function withCheckpoints<T>(
  executionDir: string,
  read: (engine: CheckpointEngine) => Promise<T>,
): Promise<T> {
  const engine = await openCheckpointsReadOnly(executionDir);
  try {
    return await read(engine);
  } finally {
    await engine.close();
  }
}

/** `GET …/checkpoints`: every checkpoint of every run, newest first. */
export function listCheckpoints(executionDir: string): Promise<CheckpointWire[]> {
  return withCheckpoints(executionDir, async (engine) =>
    (await engine.list()).map((checkpoint) => ({
      sha: checkpoint.sha,
      type: checkpoint.type,
      ...(checkpoint.codonId ? { codonId: checkpoint.codonId } : {}),
      ...(checkpoint.runId ? { runId: checkpoint.runId } : {}),
      time: checkpoint.timestamp,
      message: checkpoint.message.split('\n')[0] ?? '',
    })),
  );
}

/** git's name-status letter in the contract's words. */
export const changeStatus = (entry: DiffEntry): FileChange['status'] =>
  entry.status === 'A' ? 'added' : entry.status === 'D' ? 'deleted' : 'modified';

async function sideText(
  engine: CheckpointEngine,
  sha: string,
  path: string,
): Promise<{ text?: string; note?: string }> {
  const bytes = await engine.readFile(sha, path);
  if (bytes.length > DIFF_TEXT_LIMIT)
    return {
      note: `${path} is ${bytes.length} bytes at ${sha.slice(0, 7)}: over the ${DIFF_TEXT_LIMIT}-byte limit`,
    };
  return { text: bytes.toString('utf8') };
}

/**
 * `GET …/diff?from=&to=[&path=]`: the files that differ between two checkpoints (shas, short
 * shas, or codon references as `hankweave diff` takes them), each with its text before and after
 * unless it is binary (git's rule) or over the size limit.
 */
export async function diffCheckpoints(
  executionDir: string,
  state: HankweaveState | undefined,
  query: RawQuery<Routes['diff']>,
  command?: CommandLine,
): Promise<DiffWire> {
  const { from: fromRef, to: toRef, path: paths } = query;
  if (!fromRef || !toRef)
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      'A diff needs two checkpoints: from and to',
      'Pass ?from=<sha>&to=<sha> (shas from /checkpoints).',
    );
  return withCheckpoints(executionDir, async (engine) => {
    const emptyState = { runs: [], currentRunId: null, executionPlan: [] } as HankweaveState;
    const from = await resolveCheckpointRef(fromRef, state ?? emptyState, engine, command);
    const to = await resolveCheckpointRef(toRef, state ?? emptyState, engine, command);
    const entries = await engine.diff(from.sha, to.sha, {
      patch: false,
      ...(paths.length > 0 ? { paths } : {}),
    });
    const files: DiffWire['files'] = [];
    for (const [position, entry] of entries.entries()) {
      const status = changeStatus(entry);
      if (entry.binary) {
        files.push({ path: entry.path, status, note: 'binary file' });
        continue;
      }
      if (position >= DIFF_TEXT_FILES) {
        files.push({
          path: entry.path,
          status,
          note: `only the first ${DIFF_TEXT_FILES} files carry their text`,
        });
        continue;
      }
      const before = status === 'added' ? {} : await sideText(engine, from.sha, entry.path);
      const after = status === 'deleted' ? {} : await sideText(engine, to.sha, entry.path);
      const note = [before.note, after.note].filter(Boolean).join('; ');
      files.push({
        path: entry.path,
        status,
        ...(before.text !== undefined && !note ? { before: before.text } : {}),
        ...(after.text !== undefined && !note ? { after: after.text } : {}),
        ...(note ? { note } : {}),
      });
    }
    return { from: from.sha, to: to.sha, files };
  });
}
