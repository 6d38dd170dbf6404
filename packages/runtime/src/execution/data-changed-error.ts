import { RuntimeError } from '../errors.js';
import { changedDataNames } from './data-manifest.js';
import type { DataIdentity, ExecutionMatch } from './find-newest-execution.js';
import { executionLayout } from './layout.js';

/**
 * RUNTIME_DATA_CHANGED for data whose newest execution (by path) recorded other data: says
 * when it was created, what changed when that can be told, and both ways on.
 */
export async function dataChangedError(
  dataPath: string,
  match: ExecutionMatch,
  identity: DataIdentity,
): Promise<RuntimeError> {
  const changes = await changedDataNames(
    executionLayout(match.executionDir).dataManifest,
    match.meta.dataHash,
    identity.scan,
  ).catch(() => undefined);
  const changed = changes?.map(({ name, change }) =>
    change === 'changed' ? name : `${name} (${change})`,
  );
  const what = changed?.length ? ` (${changed.join(', ')})` : '';
  return new RuntimeError(
    'RUNTIME_DATA_CHANGED',
    `The data at ${dataPath} changed${what} since execution ${match.executionDir} was created (${match.meta.createdAt}). Resume that execution with the changed data: --execution ${match.executionDir} --force (relinks the data); or start a new execution: --start-new`,
    {
      details: {
        dataPath,
        executionDir: match.executionDir,
        createdAt: match.meta.createdAt,
        ...(changed ? { changed } : {}),
      },
    },
  );
}
