import { basename, join } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';
import {
  buildFileTree,
  comparePaths,
  type FileChanges,
  type FileSnapshot,
  hashFileSync,
} from '@hankweave/files';
import { codonTrackedPatterns, type ExecutionCodonEntry } from '@hankweave/types';
import { entryCodon } from '../plan/planner.js';
import { emit, type RuntimeContext } from '../runtime/runtime-context.js';

/** Files above this size are announced by hash and size, without their content. */
const MAX_EVENT_CONTENT_BYTES = 256 * 1024;

/**
 * The tracked patterns in force for a plan entry: those of every entry up to and including it
 * (seed 002: patterns accumulate across codons).
 */
export function patternsUpTo(
  plan: readonly ExecutionCodonEntry[],
  codonId: string | null,
): string[] {
  const patterns: string[] = [];
  for (const entry of plan) {
    for (const pattern of codonTrackedPatterns(entryCodon(entry))) {
      if (!patterns.includes(pattern)) patterns.push(pattern);
    }
    if (entry.codonId === codonId) break;
  }
  return codonId === null ? [] : patterns;
}

/** Resolves the tracked files of the agent root (the checkpoint's file list). */
export function resolveTracked(context: RuntimeContext, patterns: readonly string[]): string[] {
  if (patterns.length === 0) return [];
  const result = context.resolver.resolveDetailed(context.layout.agentRoot, patterns);
  for (const warning of result.warnings) context.log.warn(`File scan: ${warning.message}`);
  return result.paths;
}

/**
 * Scans the tracked files and reports what changed since the last scan as `file.updated` events
 * and one `filetree.updated`. Returns the changed paths (the checkpoint engine's `changed` hint).
 * On a big tree the scan comes from agentRoot's file events (see `AgentRootWatch`).
 */
export async function scanAndReport(
  context: RuntimeContext,
  codonId: string,
  patterns: readonly string[],
  source: FileEventSource,
): Promise<string[]> {
  if (patterns.length === 0) return [];
  const { changes, snapshot, warnings, walkReason } = await context.scanner.scanWatched(patterns);
  context.fileWatch?.consider(context.scanner, snapshot.size);
  if (walkReason !== undefined && context.fileWatch?.watching) {
    context.log.debug(`File scan walked agentRoot: ${walkReason}`);
  }
  for (const warning of warnings) context.log.warn(`File scan: ${warning.message}`);
  const changed = reportChanges(context, codonId, changes, source);
  if (changed.length > 0) reportTree(context, codonId, snapshot);
  return changed;
}

/**
 * The codon-start announcement (reference §5.5 step 3): every tracked file as `created`, then the
 * tree. Returns the paths that really changed since the previous scan (for the checkpoint hint).
 *
 * `created` here means "exists as the codon starts", not "new": the original sends this shape and
 * clients (sentinels, dashboards) rebuild their file view from it, so it is kept; the
 * `source.kind: 'codon-start'` tells readers apart, and the CLI shows these files as tracked,
 * never as created.
 */
export async function announceTrackedFiles(
  context: RuntimeContext,
  codonId: string,
  patterns: readonly string[],
): Promise<string[]> {
  if (patterns.length === 0) return [];
  // From the file events where agentRoot is watched: it walks when the patterns changed.
  const { changes, snapshot, warnings, by, walkReason } =
    await context.scanner.scanWatched(patterns);
  context.fileWatch?.consider(context.scanner, snapshot.size);
  if (walkReason !== undefined && context.fileWatch?.watching) {
    context.log.debug(`File scan walked agentRoot: ${walkReason}`);
  }
  for (const warning of warnings) context.log.warn(`File scan: ${warning.message}`);
  // A watched snapshot lists files found by events last: announce them in git's order anyway.
  const paths = [...snapshot.keys()];
  if (by === 'events') paths.sort(comparePaths);
  const all = paths.map((path) => ({ path, after: snapshot.get(path) }));
  reportChanges(
    context,
    codonId,
    { created: all, modified: [], deleted: [] },
    { kind: 'codon-start' },
  );
  reportTree(context, codonId, snapshot);
  return [...changes.created, ...changes.modified, ...changes.deleted].map((change) => change.path);
}

type FileEventSource = { kind: 'codon-start' | 'tool_use' | 'scan'; toolUseId?: string };

function reportTree(context: RuntimeContext, codonId: string, snapshot: FileSnapshot): void {
  emit(context, 'filetree.updated', {
    codonId,
    tree: buildFileTree([...snapshot.keys()], { root: context.layout.agentRoot, stats: snapshot }),
  });
}

function reportChanges(
  context: RuntimeContext,
  codonId: string,
  changes: FileChanges,
  source: FileEventSource,
): string[] {
  const groups = [
    ['created', changes.created],
    ['modified', changes.modified],
    ['deleted', changes.deleted],
  ] as const;
  const changed: string[] = [];
  for (const [action, list] of groups) {
    for (const change of list) {
      changed.push(change.path);
      const body =
        action === 'deleted'
          ? { content: '' }
          : fileBody(context, change.path, change.after?.size ?? 0);
      emit(context, 'file.updated', {
        codonId,
        path: change.path,
        filename: basename(change.path),
        action,
        ...body,
        source,
      });
      context.log.debug(
        source.kind === 'codon-start'
          ? `Tracked at codon start: agentRoot/${change.path}`
          : `File change detected: agentRoot/${change.path} (${action})`,
      );
    }
  }
  return changed;
}

// Text files up to 256 KB travel with their content (sentinels and dashboards read it); larger
// or binary files are announced by sha256 and size only.
function fileBody(
  context: RuntimeContext,
  path: string,
  size: number,
): { content: string; sha256?: string; bytes?: number } {
  const absolute = join(context.layout.agentRoot, path);
  try {
    if (size <= MAX_EVENT_CONTENT_BYTES) {
      // Never blocks: a symlink the agent pointed at a FIFO is reported without a body.
      const buffer = readRegularFileSync(absolute, { maxBytes: MAX_EVENT_CONTENT_BYTES });
      if (!buffer.subarray(0, 8000).includes(0))
        return { content: buffer.toString('utf8'), bytes: buffer.length };
    }
    return {
      content: '',
      sha256: hashFileSync(context.layout.agentRoot, path, { algorithm: 'sha256' }),
      bytes: size,
    };
  } catch {
    // A symlink to nowhere or a file removed since the scan: report it without a body.
    return { content: '' };
  }
}
