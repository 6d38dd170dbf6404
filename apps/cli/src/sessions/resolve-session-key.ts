import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';

/**
 * The registry key a user means: the full key, the name without its `pipeline-`/`loop-` prefix,
 * or a prefix of either that matches exactly one session (a running one wins over ended ones).
 */
export function resolveSessionKey(
  input: string,
  sessions: Record<string, { status: string }>,
  registryFile: string,
): string {
  const keys = Object.keys(sessions);
  for (const candidate of [input, `pipeline-${input}`, `loop-${input}`]) {
    if (candidate in sessions) return candidate;
  }
  const matches = keys.filter(
    (key) =>
      key.startsWith(input) ||
      key.startsWith(`pipeline-${input}`) ||
      key.startsWith(`loop-${input}`),
  );
  if (matches.length === 1 && matches[0]) return matches[0];
  const running = matches.filter((key) => sessions[key]?.status === 'running');
  // A prefix of a pipeline also matches its loops; the pipeline is what stops them all.
  const pipelines = running.filter((key) => key.startsWith('pipeline-'));
  if (pipelines.length === 1 && pipelines[0]) return pipelines[0];
  if (running.length === 1 && running[0]) return running[0];
  if (matches.length === 0) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `No session "${input}" in ${registryFile}`,
      `List the sessions with \`${commandHint('sessions', '--all')}\` and pass a key (or its unique start).`,
    );
  }
  const shown = matches.slice(0, 8).join(', ');
  throw new CliError(
    'CLI_USAGE',
    `"${input}" matches ${matches.length} sessions: ${shown}${matches.length > 8 ? ', …' : ''}`,
    `Pass more of the key, or the full key as \`${commandHint('sessions')}\` prints it.`,
  );
}
