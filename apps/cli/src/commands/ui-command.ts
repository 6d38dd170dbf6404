import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { FleetSource, isLoopback, startUiServer } from '@hankweave/dashboard/server';
import { openFleetDatabase, postgresUrlOf } from '../fleet/postgres-options.js';
import { maskedUrl } from '../fleet/server-url.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import type { Terminal } from '../output/terminal.js';
import { sessionsBaseDir } from '../sessions/session-options.js';
import { cliVersion } from '../version.js';
import type { UiOptions } from './ui-flags.js';

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(
      'CLI_USAGE',
      `--port expects a port number from 0 to 65535, got ${text}`,
      `Example: ${commandHint('ui', '--port', '7420')} (0 picks any free port).`,
    );
  return port;
}

/** Opens a URL with the platform's opener; a failure is only a warning (the URL is printed). */
function openInBrowser(url: string, terminal: Terminal): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', (error) =>
    terminal.err(
      terminal.style.yellow(
        `! Could not open a browser (${command}: ${error.message}); open the URL above.`,
      ),
    ),
  );
  child.unref();
}

/**
 * `hankweave ui`: serves the web dashboard of an executions directory until Ctrl-C (or SIGTERM),
 * then stops cleanly. Prints the URL with its token (`--json`: `{url, port, token}` as one line).
 */
export async function uiCommand(
  terminal: Terminal,
  options: UiOptions,
  env: NodeJS.ProcessEnv = process.env,
  stop?: AbortSignal,
): Promise<number> {
  const baseDir = sessionsBaseDir(options.base, env);
  if (options.base !== undefined && !existsSync(baseDir))
    throw new CliError(
      'CLI_NOT_FOUND',
      `The executions directory ${baseDir} does not exist`,
      'Pass the directory that holds your executions (--base), or omit it for the managed one.',
    );
  const host = options.host ?? '127.0.0.1';
  // Only the flag: $HANKWEAVE_POSTGRES_URL (set for workers) does not change what is served.
  const postgres = postgresUrlOf(options, {});
  const fleet = postgres ? new FleetSource(await openFleetDatabase(postgres)) : undefined;
  const server = await startUiServer({
    ...(fleet ? { fleet } : {}),
    baseDir,
    port: parsePort(options.port),
    host,
    allowRemote: options.allowRemote === true,
    write: options.write === true,
    log: (line) => terminal.err(terminal.style.yellow(`! ${line}`)),
    version: cliVersion(),
    command: commandHint,
  }).catch(async (error: unknown) => {
    await fleet?.close();
    throw error;
  });
  const { style } = terminal;
  if (!isLoopback(host))
    terminal.err(
      style.yellow(
        `! Listening on ${host}: anyone who can reach it and has the token sees every execution under ${baseDir}${options.write ? ' and can change them' : ''}.`,
      ),
    );
  if (options.json) {
    terminal.out(JSON.stringify({ url: server.url, port: server.port, token: server.token }));
  } else {
    terminal.out(
      `${style.bold('hankweave ui')} · ${baseDir}${postgres ? ` + the fleet in ${maskedUrl(postgres)}` : ''}`,
    );
    terminal.out(`  ${terminal.isTTY ? style.cyan(server.url) : server.url}`);
    terminal.out(
      style.dim(
        options.write
          ? 'Actions on: rollback, skip, force-stop and next (each asks for a confirmation). Ctrl-C stops.'
          : 'Read-only (--write allows rollback, skip, force-stop and next). Ctrl-C stops.',
      ),
    );
  }
  if (options.open) openInBrowser(server.url, terminal);
  await new Promise<void>((done) => {
    const finish = () => {
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      done();
    };
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    stop?.addEventListener('abort', finish, { once: true });
  });
  await server.close();
  if (!options.json) terminal.err(style.dim('hankweave ui stopped.'));
  return 0;
}
