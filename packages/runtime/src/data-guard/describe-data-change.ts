import { DATA_LINK_NAME } from '../execution/layout.js';
import type { DataChange } from './fingerprint-diff.js';
import type { RestoreResult } from './restore-copy.js';

/** At most this many paths are named in a message; the count says how many there were. */
export const MAX_NAMED_PATHS = 10;

/** A data source path as the agent sees it: `read_only_data_source/notes.md`. */
export const displayPath = (path: string): string =>
  path === '' ? DATA_LINK_NAME : `${DATA_LINK_NAME}/${path}`;

/**
 * The message of a data source that changed: where it was noticed, up to ten paths and the count,
 * who did it, and what to do; for a copy, whether it was restored.
 */
export function describeDataChange(input: {
  changes: readonly DataChange[];
  /** What had just run: "the Bash tool call toolu_1", "rig operation 2 (command 'make')". */
  after: string;
  /** The copy's restore, when the data source is a copy. */
  restore?: RestoreResult;
  /** The user's data, named when it was changed in place (a symlinked data source). */
  originalPath?: string;
}): string {
  const { changes, after, restore, originalPath } = input;
  const named = changes
    .slice(0, MAX_NAMED_PATHS)
    .map((change) => `${displayPath(change.path)} (${change.kind})`);
  const more = changes.length - named.length;
  const count = `${changes.length} path${changes.length === 1 ? '' : 's'}`;
  const parts = [
    `The data source changed after ${after}: ${count}: ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}.`,
    "hankweave never writes there; the agent or a rig command did. Check the hank's rig commands and prompts (the data is read-only: write results elsewhere in agentRoot).",
  ];
  if (restore) {
    parts.push(
      restore.failed.length === 0
        ? 'The copy in read_only_data_source was restored from the original data.'
        : `The copy could not be fully restored (${restore.failed
            .slice(0, 3)
            .map((failure) => `${displayPath(failure.path)}: ${failure.message}`)
            .join('; ')}); start a new execution (--start-new) to copy the data again.`,
    );
  } else {
    parts.push(
      `read_only_data_source links to your own data${originalPath ? ` (${originalPath})` : ''}, so these changes are in it: restore it from a backup or version control, or run with --copy to give the agent a copy.`,
    );
  }
  return parts.join(' ');
}
