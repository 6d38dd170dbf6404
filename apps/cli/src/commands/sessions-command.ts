import { checkAndRepairExecutions, listExecutions } from '@hankweave/runtime';
import { sessionLayout } from '@hankweave/sessions';
import { fleetSessionsCommand } from '../fleet/fleet-sessions.js';
import { postgresUrlOf } from '../fleet/postgres-options.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import type { Terminal } from '../output/terminal.js';
import { askYesNo } from '../run/confirm.js';
import { type DeclinedKill, printCheck, unfixedCount } from '../sessions/check-report.js';
import { sessionLines } from '../sessions/session-lines.js';
import {
  asSessionsCliError,
  parseStatusList,
  sessionsBaseDir,
} from '../sessions/session-options.js';
import type { SessionsOptions } from './sessions-flags.js';

const RECENT_MS = 7 * 24 * 3600 * 1000;

/**
 * `hankweave sessions` (alias `ls`): the sessions of the executions base directory, newest first;
 * with `--check`, the seed's anomalies and their fixes. Listing only reads.
 */
export async function sessionsCommand(
  terminal: Terminal,
  options: SessionsOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  // Only the flag: $HANKWEAVE_POSTGRES_URL (set for workers) must not change what `sessions` lists.
  const postgres = postgresUrlOf(options, {});
  if (postgres !== undefined) {
    if (options.check || options.base !== undefined)
      throw new CliError(
        'CLI_USAGE',
        `--postgres lists the fleet's executions; it does not go with ${options.check ? '--check' : '--base'}`,
        `Run \`${commandHint('sessions', options.check ? '--check' : '--base <dir>')}\` without --postgres for the session registry of a directory.`,
      );
    return fleetSessionsCommand(terminal, postgres, options);
  }
  const projectDir = sessionsBaseDir(options.base, env);
  try {
    return options.check
      ? await checkCommand(terminal, projectDir, options)
      : await listCommand(terminal, projectDir, options);
  } catch (error) {
    throw asSessionsCliError(error);
  }
}

async function listCommand(
  terminal: Terminal,
  projectDir: string,
  options: SessionsOptions,
): Promise<number> {
  const statuses = parseStatusList(options.status);
  const now = new Date();
  const { sessions, problems } = await listExecutions({ projectDir, now });
  const { style } = terminal;
  const registryFile = sessionLayout(projectDir).registryFile;
  for (const problem of problems) {
    terminal.err(
      style.yellow(`! ${registryFile}: ${problem.key ? `${problem.key}: ` : ''}${problem.message}`),
    );
  }
  const recent = now.getTime() - RECENT_MS;
  const wanted = sessions.filter((session) => !statuses || statuses.includes(session.status));
  const shown = wanted.filter(
    (session) =>
      options.all || session.status === 'running' || Date.parse(session.startedAt) >= recent,
  );
  if (options.json) {
    terminal.out(JSON.stringify(shown));
    return 0;
  }
  if (shown.length === 0) {
    if (sessions.length === 0) {
      terminal.out(`No sessions in ${registryFile}.`);
      terminal.out(
        style.dim(
          `Every run of \`${commandHint('<hank>')}\` whose execution lives in ${projectDir} records itself there; for another executions directory pass --base <dir> (or set HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR).`,
        ),
      );
    } else {
      terminal.out(
        `No session matches${statuses ? ` --status ${statuses.join(',')}` : ''}${options.all ? '' : ' among the running ones and those started in the last 7 days'} (${sessions.length} in ${registryFile}).`,
      );
      if (!options.all) terminal.out(style.dim('--all shows every entry.'));
    }
    return 0;
  }
  for (const line of sessionLines(shown, style)) terminal.out(line);
  const older = wanted.length - shown.length;
  if (older > 0) terminal.out(style.dim(`(${older} older not shown; --all shows every entry)`));
  return 0;
}

async function checkCommand(
  terminal: Terminal,
  projectDir: string,
  options: SessionsOptions,
): Promise<number> {
  const declined: DeclinedKill[] = [];
  const canAsk = terminal.isTTY && process.stdin.isTTY === true && !options.json;
  const result = await checkAndRepairExecutions({
    projectDir,
    killStale: async (key) => {
      if (options.yes) return true;
      if (!canAsk) {
        declined.push({ key, why: 'no-tty' });
        return false;
      }
      const yes = await askYesNo(`Session ${key} has run for more than 8 hours. Kill it?`);
      if (!yes) declined.push({ key, why: 'declined' });
      return yes;
    },
  });
  const unfixed = unfixedCount(result);
  if (options.json) {
    terminal.out(JSON.stringify({ ...result, declined, unfixed }));
  } else {
    printCheck(terminal, result, sessionLayout(projectDir).registryFile, declined);
  }
  return unfixed > 0 ? 1 : 0;
}
