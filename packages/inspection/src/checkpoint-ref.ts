import type { CheckpointEngine } from '@hankweave/checkpoints';
import { executionThread } from '@hankweave/state';
import { type CodonExecution, HankweaveError, type HankweaveState } from '@hankweave/types';
import { type CommandLine, InspectionError, plainCommandLine } from './errors.js';

/** Checkpoint kinds a `codon:type` reference may name; `start` and `end` are the seed's aliases. */
export const CODON_CHECKPOINT_TYPES = [
  'rig-setup',
  'completed',
  'error',
  'skipped',
  'start',
  'end',
] as const;
export type CodonCheckpointType = (typeof CODON_CHECKPOINT_TYPES)[number];

/** The checkpoints a codon record names, each in a field of its own. */
export const RECORD_CHECKPOINT_TYPES = ['rig-setup', 'completed', 'error', 'skipped'] as const;
export type RecordCheckpointType = (typeof RECORD_CHECKPOINT_TYPES)[number];

/**
 * The sha a codon record holds for one checkpoint type: `rigSetupCheckpoint` on any record, the
 * terminal ones only on a record of that status (`completionCheckpoint` on a completed one ...).
 */
export function recordCheckpoint(
  record: CodonExecution,
  type: RecordCheckpointType,
): string | undefined {
  switch (type) {
    case 'rig-setup':
      return record.rigSetupCheckpoint;
    case 'completed':
      return record.status === 'completed' ? record.completionCheckpoint : undefined;
    case 'error':
      return record.status === 'failed' ? record.errorCheckpoint : undefined;
    case 'skipped':
      return record.status === 'skipped' ? record.skipCheckpoint : undefined;
  }
}

const ORDER: Record<CodonCheckpointType, RecordCheckpointType[]> = {
  start: ['rig-setup', 'completed', 'error', 'skipped'],
  end: ['completed', 'error', 'skipped', 'rig-setup'],
  'rig-setup': ['rig-setup'],
  completed: ['completed'],
  error: ['error'],
  skipped: ['skipped'],
};

/** A reference as the user typed it: a codon (with a checkpoint type) or anything git resolves. */
export type ParsedRef =
  | { kind: 'codon'; codonId: string; type: CodonCheckpointType }
  | { kind: 'git'; ref: string };

/** Every codon record, the execution thread first (newest first), then every other run. */
function records(state: HankweaveState): CodonExecution[] {
  const thread = executionThread(state).codons.map(({ codon }) => codon);
  const seen = new Set(thread);
  return [
    ...thread,
    ...state.runs.flatMap((run) => [...run.codons].reverse()).filter((record) => !seen.has(record)),
  ];
}

/** Known codon ids: the plan's and every record's. */
export function knownCodonIds(state: HankweaveState): string[] {
  return [
    ...new Set([
      ...state.executionPlan.map((entry) => entry.codonId),
      ...records(state).map((record) => record.codonId),
    ]),
  ];
}

/**
 * `codon`, `codon:type` or a loop codon without its iteration (`polish-pass` = its newest
 * iteration on the thread) become a codon reference; anything else is left to git (sha, branch).
 */
export function parseRef(
  ref: string,
  state: HankweaveState,
  defaultType: CodonCheckpointType = 'end',
): ParsedRef {
  const colon = ref.lastIndexOf(':');
  const suffix = colon > 0 ? ref.slice(colon + 1) : '';
  const hasType = (CODON_CHECKPOINT_TYPES as readonly string[]).includes(suffix);
  const name = hasType ? ref.slice(0, colon) : ref;
  const type = hasType ? (suffix as CodonCheckpointType) : defaultType;
  const ids = knownCodonIds(state);
  if (ids.includes(name)) return { kind: 'codon', codonId: name, type };
  const iteration = records(state).find((record) => record.codonId.startsWith(`${name}#`));
  if (iteration) return { kind: 'codon', codonId: iteration.codonId, type };
  if (hasType) {
    throw new InspectionError(
      'INSPECTION_NOT_FOUND',
      `No codon ${name} in this execution`,
      `Codon ids: ${ids.join(', ') || '(none yet)'}.`,
    );
  }
  return { kind: 'git', ref };
}

/** A checkpoint named by the user, resolved to a full sha, with a label for headings. */
export interface ResolvedRef {
  sha: string;
  label: string;
}

/**
 * Resolves a codon reference through the state's records, anything else through the repository.
 * `command` spells the commands its hints suggest.
 * @throws {InspectionError} INSPECTION_NOT_FOUND for a codon without that checkpoint, or a
 *   reference that is neither a codon nor a sha of the repository.
 */
export async function resolveCheckpointRef(
  ref: string,
  state: HankweaveState,
  engine: CheckpointEngine,
  command: CommandLine = plainCommandLine,
): Promise<ResolvedRef> {
  const parsed = parseRef(ref, state);
  if (parsed.kind === 'codon') {
    for (const record of records(state).filter(
      (candidate) => candidate.codonId === parsed.codonId,
    )) {
      for (const type of ORDER[parsed.type]) {
        const sha = recordCheckpoint(record, type);
        if (sha) return { sha, label: `${type}:${parsed.codonId} ${sha.slice(0, 7)}` };
      }
    }
    throw new InspectionError(
      'INSPECTION_NOT_FOUND',
      `Codon ${parsed.codonId} has no ${parsed.type} checkpoint`,
      `List its checkpoints with \`${command('checkpoints', '--codon', parsed.codonId)}\`.`,
    );
  }
  try {
    const sha = await engine.resolve(parsed.ref);
    return { sha, label: sha.slice(0, 7) };
  } catch (error) {
    if (HankweaveError.is(error, 'CHECKPOINT_NOT_FOUND')) {
      throw new InspectionError(
        'INSPECTION_NOT_FOUND',
        `${parsed.ref} is neither a codon of this execution nor a checkpoint sha`,
        `Use a codon id (${knownCodonIds(state).slice(0, 6).join(', ')}…), codon:type, or a sha from \`${command('checkpoints')}\`.`,
      );
    }
    throw error;
  }
}

/** The first 7 characters of a sha, as git shows them. */
export const shortSha = (sha: string | null | undefined): string =>
  sha ? sha.slice(0, 7) : '-------';
