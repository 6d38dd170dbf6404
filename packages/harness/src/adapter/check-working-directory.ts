import { stat } from 'node:fs/promises';
import { HarnessError } from '../errors.js';

/**
 * Checks that the start's working directory exists and is a directory: what every process-based
 * adapter checks before it starts anything (the agent would otherwise fail to spawn with a less
 * helpful error, or run somewhere else).
 * @throws {HarnessError} HARNESS_INVALID_OPTIONS when `cwd` is not a directory.
 */
export async function checkWorkingDirectory(cwd: string): Promise<void> {
  const info = await stat(cwd).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new HarnessError('HARNESS_INVALID_OPTIONS', `cwd is not a directory: ${cwd}`, {
      details: { cwd },
    });
  }
}
