import { hankLoops, type LoopConfig } from '@hankweave/types';
import type { CodonAttempt } from '../codon/codon-attempt.js';
import { DATA_LINK_NAME } from '../execution/layout.js';
import { emit, type RuntimeContext } from '../runtime/runtime-context.js';
import { type ArchiveLocation, type FailedPath, moveToArchive } from './archive-store.js';

/** One `archive.completed` / `archive.partial` to announce (reference §3.3). */
export interface ArchiveReport {
  /** The codon's runtime id, or the loop id for a loop's own list. */
  codonId: string;
  archivedPaths: string[];
  failedPaths: FailedPath[];
}

/** What a finished codon archived: its own list (and rig copies), and its loop's at the loop's end. */
export interface CodonArchives {
  codon?: ArchiveReport;
  loop?: ArchiveReport;
}

/** The execution's archive paths, as the store takes them. */
export function archiveLocation(context: RuntimeContext): ArchiveLocation {
  const { layout } = context;
  return {
    executionDir: layout.executionDir,
    agentRoot: layout.agentRoot,
    rigArchive: layout.rigArchive,
    manifestPath: layout.archiveManifest,
    dataLinkName: DATA_LINK_NAME,
  };
}

/**
 * `archiveOnSuccess` after a codon ended (reference §5.6, §5.5 steps 12–13). It runs after the
 * codon's checkpoint and its terminal transition, as in the original: the manifest entries carry
 * that checkpoint's sha, so a rollback to a point before it (the checkpoint lies in
 * `target..current`) moves the files back, and a rollback to the codon itself keeps them archived.
 *
 * - A completed codon: its `archiveOnSuccess` globs (resolved under agentRoot as tracked files
 *   are) and its rig copy targets marked `archiveOnSuccess: true` (moved whole) go to
 *   `rigArchive/<codonId>/…`, or `rigArchive/<loopId>-<iteration>/<codonId>/…` in a loop.
 * - A completed or skipped last codon of a loop's final iteration: the loop's list goes to
 *   `rigArchive/<loopId>-loop/…`.
 *
 * The events are not emitted here: the caller announces them after `codon.completed` (the
 * original's order). Never throws: an I/O failure becomes a failed path.
 */
export async function archiveAfterCodon(
  attempt: CodonAttempt,
  status: 'completed' | 'failed' | 'skipped',
  checkpointSha: string | undefined,
  /** The plan decided that the codon's loop ends with it. */
  loopEnds: boolean,
): Promise<CodonArchives | undefined> {
  const { context, codon, entry, codonId } = attempt;
  if (context.abandoned.aborted || checkpointSha === undefined || status === 'failed') return;
  const location = archiveLocation(context);
  const timestamp = context.clock().toISOString();
  const loopContext = entry.loopContext;
  const result: CodonArchives = {};

  const copies = (codon.rigSetup ?? []).flatMap((op) =>
    op.type === 'copy' && op.archiveOnSuccess === true ? [op.copy.to] : [],
  );
  const globs = codon.archiveOnSuccess ?? [];
  if (status === 'completed' && (globs.length > 0 || copies.length > 0)) {
    const archiveDir = loopContext
      ? `${loopContext.loopId}-${loopContext.iteration}/${codon.id}`
      : codonId;
    result.codon = await archive(context, location, {
      sources: [...resolveGlobs(context, globs), ...copies.map(plainPath)],
      archiveDir,
      codonId,
      ...(loopContext ? { loopContext } : {}),
      checkpointSha,
      timestamp,
    });
  }

  const loop = loopContext ? loopOf(context, loopContext.loopId) : undefined;
  if (loopContext && loop?.archiveOnSuccess?.length) {
    if (loopEnds) {
      result.loop = await archive(context, location, {
        sources: resolveGlobs(context, loop.archiveOnSuccess),
        archiveDir: `${loop.id}-loop`,
        codonId: loop.id,
        loopContext,
        checkpointSha,
        timestamp,
      });
    }
  }
  return result.codon || result.loop ? result : undefined;
}

/** Announces one archiving: `archive.completed`, or `archive.partial` when a path failed. */
export function emitArchiveReport(context: RuntimeContext, report: ArchiveReport | undefined) {
  if (!report) return;
  if (report.failedPaths.length === 0) {
    emit(context, 'archive.completed', {
      codonId: report.codonId,
      archivedPaths: report.archivedPaths,
    });
    return;
  }
  emit(context, 'archive.partial', {
    codonId: report.codonId,
    archivedPaths: report.archivedPaths,
    failedPaths: report.failedPaths,
  });
}

async function archive(
  context: RuntimeContext,
  location: ArchiveLocation,
  request: Parameters<typeof moveToArchive>[1],
): Promise<ArchiveReport> {
  let report: ArchiveReport;
  try {
    report = { codonId: request.codonId, ...(await moveToArchive(location, request)) };
  } catch (error) {
    // The manifest could not be written: nothing was moved.
    const message = (error as Error).message;
    report = {
      codonId: request.codonId,
      archivedPaths: [],
      failedPaths: request.sources.map((path) => ({ path, error: message })),
    };
  }
  for (const failed of report.failedPaths) {
    context.log.warn(`archiveOnSuccess of ${request.codonId}: ${failed.path}: ${failed.error}`);
  }
  return report;
}

/** The files the globs match under agentRoot, resolved as tracked files are (git's rules). */
function resolveGlobs(context: RuntimeContext, globs: readonly string[]): string[] {
  if (globs.length === 0) return [];
  const resolved = context.resolver.resolveDetailed(context.layout.agentRoot, globs);
  for (const warning of resolved.warnings) context.log.warn(`Archive scan: ${warning.message}`);
  return resolved.paths;
}

/** A rig copy target as written (`./src/`, `src`) in the store's plain form (`src`). */
function plainPath(path: string): string {
  return path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

function loopOf(context: RuntimeContext, loopId: string): LoopConfig | undefined {
  return hankLoops(context.config).find((item) => item.id === loopId);
}
