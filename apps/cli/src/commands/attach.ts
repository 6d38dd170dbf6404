import { liveLock } from '@hankweave/inspection';
import { connectHankweave } from '@hankweave/server/client';
import type { ParallelContext } from '@hankweave/types';
import type { ExecutionSelector } from '../execution/execution-options.js';
import { findExecution } from '../execution/find-execution.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import type { CliEvent } from '../output/describe-event.js';
import { lanesFromEvent } from '../output/lanes.js';
import type { Terminal } from '../output/terminal.js';
import { printEvent } from './events.js';

/**
 * `hankweave --attach -e <dir>`: a read-only live view of an execution that another process runs
 * with its WebSocket server on (`--port`). The port, host and token come from runtime.lock; the
 * view starts with the last events of the journal and ends when the runtime shuts down. A
 * parallel block's codons are labelled with their lanes (`[review/left] style`), and each
 * `state.snapshot` line names every running codon.
 */
export async function attachCommand(
  terminal: Terminal,
  selector: ExecutionSelector,
  options: { json?: boolean },
): Promise<number> {
  const executionDir = await findExecution(selector);
  const lock = await liveLock(executionDir);
  if (!lock) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `No runtime is running in ${executionDir}`,
      'Start the run with `--port 0` in another terminal, then attach to it.',
    );
  }
  if (lock.port === undefined || lock.token === undefined) {
    throw new CliError(
      'CLI_FAILED',
      `The runtime in ${executionDir} (pid ${lock.pid}) has no WebSocket server`,
      'Start the run with `--port 0` (any free port) so that it can be watched.',
    );
  }
  const url = `ws://${lock.host ?? '127.0.0.1'}:${lock.port}/ws`;
  let client: Awaited<ReturnType<typeof connectHankweave>>;
  try {
    client = await connectHankweave(url, {
      token: lock.token,
      mode: 'readonly',
      sendPreviousEvents: true,
    });
  } catch (error) {
    throw new CliError(
      'CLI_FAILED',
      `Cannot attach to ${url}: ${(error as Error).message}`,
      `Check that the run is still going (\`${commandHint('status', '-e', '<dir>')}\`) and that you can read runtime.lock.`,
    );
  }
  // Diagnostics go to stderr, so `--json` keeps stdout to events only.
  terminal.err(
    terminal.style.dim(`Attached read-only to ${executionDir} (pid ${lock.pid}); Ctrl-C detaches.`),
  );
  const seen = new Set<string>();
  // The lanes of parallel branches, learnt from the events themselves (`branch` on codon events
  // and snapshot records): concurrent branches' lines interleave, so each names its lane.
  const lanes = new Map<string, ParallelContext>();
  // A newer runtime may send types this version does not know: they are shown as JSON.
  const show = (event: CliEvent) => {
    if (seen.has(event.id)) return;
    seen.add(event.id);
    for (const [codonId, lane] of lanesFromEvent(event)) lanes.set(codonId, lane);
    printEvent(terminal, event, options.json === true, lanes);
  };
  for (const event of client.handshake.eventHistory) show(event);
  client.on((event) => {
    if (event.type !== 'pong' && event.type !== 'history.batch') show(event);
  });
  const detach = () => void client.close(1000, 'detached');
  process.once('SIGINT', detach);
  const closed = await client.closed;
  process.off('SIGINT', detach);
  terminal.err(
    terminal.style.dim(`Detached (${closed.code}${closed.reason ? `: ${closed.reason}` : ''}).`),
  );
  return 0;
}
