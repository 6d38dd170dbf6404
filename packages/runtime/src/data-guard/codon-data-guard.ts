import { realpathSync } from 'node:fs';
import type { FailureReason } from '@hankweave/types';
import type { CodonAttempt } from '../codon/codon-attempt.js';
import { readExecutionMeta } from '../execution/execution-meta.js';
import { type RuntimeContext, reportError } from '../runtime/runtime-context.js';
import { DataGuard } from './data-guard.js';
import { describeDataChange, displayPath, MAX_NAMED_PATHS } from './describe-data-change.js';
import type { DataChange } from './fingerprint-diff.js';

/** The `code` of the `error` event that reports a changed data source. */
export const DATA_SOURCE_MODIFIED = 'DATA_SOURCE_MODIFIED';

/** The guard of one codon attempt. */
interface AttemptGuard {
  guard: DataGuard | undefined;
  /** The user's data (`readOnlySourceResolvedDataPath`), named in messages. */
  originalPath?: string;
  /**
   * The data source's event generation (`context.dataWatch`) at which it was last known equal to
   * the baseline (taken before the walk that showed it); undefined while its events cannot
   * answer (not watched, or the data holds links whose targets no watcher sees).
   */
  cleanAt?: number | undefined;
  /** Events can never answer for this data: it holds symbolic links. */
  linked?: boolean;
}

// One guard per attempt (a retry is a new attempt with a new baseline), found from every phase.
const guards = new WeakMap<CodonAttempt, Promise<AttemptGuard>>();
// The failure of an attempt whose guard tripped; it trips once.
const failures = new WeakMap<CodonAttempt, FailureReason>();
// "The check is partial" is said once per runtime, not once per codon.
const toldPartial = new WeakSet<RuntimeContext>();

/**
 * Takes the data source's fingerprint for this attempt, unless taken already: before the rig's
 * first operation, or before the agent starts when there is no rig. Never throws: a data source
 * that cannot be read is not guarded (and the agent could not read it either).
 */
export function openCodonDataGuard(attempt: CodonAttempt): Promise<AttemptGuard> {
  let opened = guards.get(attempt);
  if (!opened) {
    opened = open(attempt);
    guards.set(attempt, opened);
  }
  return opened;
}

async function open({ context }: CodonAttempt): Promise<AttemptGuard> {
  const meta = await readExecutionMeta(context.layout.metaFile).catch(() => undefined);
  // Before the baseline's walk: a change during it shows as an event after this generation.
  const root = realRoot(context.layout.dataLink);
  const before = root === undefined ? undefined : context.dataWatch.generation(root);
  const guard = DataGuard.open({
    dataLink: context.layout.dataLink,
    linkType: meta?.linkType === 'copy' ? 'copy' : 'symlink',
    ...(meta ? { originalPath: meta.readOnlySourceResolvedDataPath } : {}),
  });
  if (!guard) context.log.debug(`No data source at ${context.layout.dataLink} to guard`);
  if (guard?.partial && !toldPartial.has(context)) {
    toldPartial.add(context);
    context.log.warn(
      'The data source has more than 100,000 entries: changes are checked in the first 100,000 (sorted by path) only',
    );
  }
  const linked = guard?.hasLinks ?? false;
  if (guard && !linked) context.dataWatch.consider(guard.root, guard.size);
  return {
    guard,
    ...(meta ? { originalPath: meta.readOnlySourceResolvedDataPath } : {}),
    linked,
    cleanAt: guard?.root === root && !linked ? before : undefined,
  };
}

function realRoot(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The changes since the attempt's baseline. With `afterToolCall`, when the data source's events
 * say nothing changed since it was last found equal, only the link itself is looked at; any
 * other check (and one after a reported change) walks, and a walk that finds nothing moves the
 * attempt's mark to the generation taken before it.
 */
function changesSince(
  context: RuntimeContext,
  opened: AttemptGuard,
  guard: DataGuard,
  afterToolCall: boolean,
): DataChange[] {
  // Taken before the walk below: a change during it shows as a later generation.
  const now = opened.linked ? undefined : context.dataWatch.generation(guard.root);
  if (afterToolCall && now !== undefined) {
    const why =
      opened.cleanAt === undefined
        ? 'watched since this attempt began'
        : now !== opened.cleanAt
          ? 'its file events reported a change'
          : guard.checkLink().length > 0
            ? 'the data link changed'
            : undefined;
    if (why === undefined) {
      context.log.debug('Data source check: no file events since it was found unchanged');
      return [];
    }
    context.log.debug(`Data source check walked: ${why}`);
  }
  const changes = guard.check();
  if (changes.length === 0) opened.cleanAt = now;
  return changes;
}

/**
 * Compares the data source with the attempt's fingerprint (after `after`, e.g. "the Bash tool
 * call toolu_1"). The first time it differs: a copied data source is restored from the original,
 * an `error` event with code DATA_SOURCE_MODIFIED names the paths, and the failure is returned
 * (and kept: see {@link dataSourceFailure}). Later calls return undefined. `afterToolCall`: the
 * check after a tool call, which a watched data source answers from its events (see
 * `DataSourceWatches`); the check when the session ends always walks.
 */
export async function checkDataSource(
  attempt: CodonAttempt,
  after: string,
  options: { afterToolCall?: boolean } = {},
): Promise<FailureReason | undefined> {
  const opened = await openCodonDataGuard(attempt);
  const { guard, originalPath } = opened;
  if (!guard || failures.has(attempt)) return undefined;
  const { context, codonId } = attempt;
  const afterToolCall = options.afterToolCall ?? false;
  // Every change the agent made before its tool call's result is counted before the look.
  if (afterToolCall && !opened.linked) await context.dataWatch.settle(guard.root);
  const changes = changesSince(context, opened, guard, afterToolCall);
  if (changes.length === 0) return undefined;
  const restore = guard.restorable ? await guard.restore(changes) : undefined;
  const message = describeDataChange({
    changes,
    after,
    ...(restore ? { restore } : {}),
    ...(originalPath ? { originalPath } : {}),
  });
  const failure: FailureReason = { type: 'unknown', retriable: false, message };
  failures.set(attempt, failure);
  reportError(context, `Codon ${codonId}: ${message}`, {
    severity: 'codon',
    codon: codonId,
    code: DATA_SOURCE_MODIFIED,
    context: {
      paths: changes.slice(0, MAX_NAMED_PATHS).map((change) => displayPath(change.path)),
      count: changes.length,
      restored: restore ? restore.failed.length === 0 : false,
    },
  });
  return failure;
}

/** The failure of an attempt whose data source changed, once a check found it. */
export function dataSourceFailure(attempt: CodonAttempt): FailureReason | undefined {
  return failures.get(attempt);
}

/**
 * Opens the guard before the rig runs and returns the check `runRigSetup` calls after each
 * operation (its `checkAfterOperation`): the failure's message, or undefined.
 */
export async function guardRigSetup(
  attempt: CodonAttempt,
): Promise<(operation: string) => Promise<string | undefined>> {
  await openCodonDataGuard(attempt);
  return async (operation) => (await checkDataSource(attempt, operation))?.message;
}
