import { basename, dirname } from 'node:path';
import {
  loopSessionKey,
  pipelineSessionKey,
  progressFileRelativePath,
  toSessionName,
} from '@hankweave/sessions';
import {
  type CodonConfig,
  type ExecutionCodonEntry,
  type HankConfig,
  hankLoops,
  type LoopConfig,
  type ProgressFileSetting,
} from '@hankweave/types';

// How an execution maps onto seed 004's sessions. The directory that holds the execution is the
// seed's "project": for managed executions that is the execution base directory, so one registry
// lists every execution started under it. An execution is one `pipeline` session named after its
// directory; each loop of its hank is one `loop` session named after the execution and the loop.

/** The seed's project directory of an execution: the directory holding it. */
export const sessionsProjectDir = (executionDir: string): string => dirname(executionDir);

/** The session name of an execution (its directory name, file-safe). */
export const executionSessionName = (executionDir: string): string =>
  toSessionName(basename(executionDir));

/** The registry key of an execution's pipeline session: `pipeline-{name}`. */
export const pipelineKeyOf = (executionDir: string): string =>
  pipelineSessionKey(executionSessionName(executionDir));

/** The session name of a loop (or of a codon with its own progress file) of an execution. */
export const childSessionName = (executionDir: string, id: string): string =>
  toSessionName(executionSessionName(executionDir), id);

/** The registry key of a loop's session: `loop-{execution}-{loopId}`. */
export const loopKeyOf = (executionDir: string, loopId: string): string =>
  loopSessionKey(childSessionName(executionDir, loopId));

/** The loop of a plan entry, if it is in one. */
export function loopOfEntry(
  config: HankConfig,
  entry: ExecutionCodonEntry,
): LoopConfig | undefined {
  const loopId = entry.loopContext?.loopId;
  if (loopId === undefined) return undefined;
  return hankLoops(config).find((item) => item.id === loopId);
}

/** A progress file in force for a codon: where it is in agentRoot, its session, its Verify line. */
export interface ProgressFileSpec {
  /** POSIX path relative to agentRoot. */
  relativePath: string;
  session: string;
  verify?: string;
}

/**
 * The progress file of a plan entry: its loop's (shared by every codon and iteration of the
 * loop), else the codon's own; undefined when neither asks for one.
 */
export function progressFileOf(
  config: HankConfig,
  entry: ExecutionCodonEntry,
  executionDir: string,
): ProgressFileSpec | undefined {
  const loop = loopOfEntry(config, entry);
  const codon = entry.codon as unknown as CodonConfig;
  const owner = loop?.progressFile !== undefined ? loop : codon;
  const setting: ProgressFileSetting | undefined = owner.progressFile;
  if (setting === undefined || setting === false) return undefined;
  const session = childSessionName(executionDir, owner.id);
  const path = typeof setting === 'string' ? setting : setting === true ? undefined : setting.path;
  const verify = typeof setting === 'object' ? setting.verify : undefined;
  return {
    relativePath: path ?? progressFileRelativePath(session),
    session,
    ...(verify !== undefined ? { verify } : {}),
  };
}

/** The plan's progress files up to and including `codonId`: they are tracked (checkpointed). */
export function progressPatternsUpTo(
  config: HankConfig,
  plan: readonly ExecutionCodonEntry[],
  codonId: string | null,
  executionDir: string,
): string[] {
  const patterns: string[] = [];
  if (codonId === null) return patterns;
  for (const entry of plan) {
    const spec = progressFileOf(config, entry, executionDir);
    if (spec && !patterns.includes(spec.relativePath)) patterns.push(spec.relativePath);
    if (entry.codonId === codonId) break;
  }
  return patterns;
}
