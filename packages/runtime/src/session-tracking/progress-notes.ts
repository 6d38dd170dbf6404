import { readRegularTextFile } from '@hankweave/durable-io';
import { ensureProgressFile, progressEntries } from '@hankweave/sessions';
import type { ProgressFileSpec } from './session-names.js';

/** The note that tells a fresh agent where the progress file is and how to add to it. */
export function progressInstructions(spec: ProgressFileSpec): string {
  return [
    `Progress file: ${spec.relativePath} (relative to your working directory) holds what earlier`,
    'agents learned. Read it first. Before you finish, append one entry at its end: a line',
    '"## <date> - <what you worked on>", a few "- " lines (what you did, files, learnings), then',
    'a line "---". Add reusable patterns under "## Codebase Patterns". Do not rewrite earlier entries.',
  ].join('\n');
}

/** Creates the progress file with the seed's header when absent; returns its entry count. */
export async function prepareProgressFile(file: string, spec: ProgressFileSpec): Promise<number> {
  await ensureProgressFile(
    file,
    spec.session,
    spec.verify !== undefined ? { verify: spec.verify } : {},
  );
  return countEntries(file);
}

/** The number of `---`-separated entries in the progress file (0 when unreadable). */
export async function countEntries(file: string): Promise<number> {
  try {
    // In agentRoot, where the agent may have put a FIFO: never block on it.
    return progressEntries(await readRegularTextFile(file)).length;
  } catch {
    return 0;
  }
}
