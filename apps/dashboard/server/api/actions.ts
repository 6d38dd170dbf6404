import { type CommandLine, shortSha } from '@hankweave/inspection';
import { rollbackExecution } from '@hankweave/inspection/rollback';
import { type ClientCommandInput, connectHankweave } from '@hankweave/server/client';
import { ACTION_NAMES, type ActionName } from '../../src/api/constants.js';
import type { ActionResult } from '../../src/api/types.js';
import type { ExecutionFacts } from '../derive/execution-summary.js';
import { HttpError } from '../http/http-error.js';

/**
 * The body of an action: the confirmation the dialog recorded, and its target (a rollback's
 * checkpoint; for skip and stop, the codon the confirmation named, so no other codon is stopped).
 */
export interface ActionRequest {
  confirm?: unknown;
  target?: unknown;
}

type LiveAction = Exclude<ActionName, 'rollback'>;

/** The runtime command of a live action; skip and stop name the codon the person confirmed. */
function liveCommandOf(action: LiveAction, codonId: string | undefined): ClientCommandInput {
  const expected = codonId === undefined ? {} : { codonId };
  switch (action) {
    case 'skip':
      return { type: 'codon.skip', data: expected };
    case 'stop':
      return {
        type: 'codon.forceStop',
        data: { reason: 'force-stopped from hankweave ui', ...expected },
      };
    case 'next':
      return { type: 'codon.next' };
  }
}

/** What a sent live action answers; skip and stop name their codon when the request did. */
function doneMessage(action: LiveAction, codonId: string | undefined): string {
  const codon = codonId === undefined ? 'The running codon' : `Codon ${codonId}`;
  switch (action) {
    case 'skip':
      return `${codon} is being skipped.`;
    case 'stop':
      return `${codon} is being force-stopped.`;
    case 'next':
      return 'The next codon is starting.';
  }
}

/**
 * `POST /api/executions/:id/actions/:action` (the server checked `--write`, the header and the
 * origin): `rollback` on a stopped execution through the same code as `hankweave rollback`;
 * `skip`, `stop` and `next` on a live one, sent over the runtime's WebSocket as a read-and-write
 * client with the token of runtime.lock.
 */
export async function runAction(
  facts: ExecutionFacts,
  action: string,
  body: ActionRequest,
  command?: CommandLine,
): Promise<ActionResult> {
  if (!(ACTION_NAMES as readonly string[]).includes(action))
    throw new HttpError(
      404,
      'ACTION_NOT_FOUND',
      `No action ${JSON.stringify(action.slice(0, 40))}`,
      `Actions: ${ACTION_NAMES.join(', ')}.`,
    );
  if (body.confirm !== true)
    throw new HttpError(
      400,
      'CONFIRMATION_REQUIRED',
      `${action} needs {"confirm": true} in the request body`,
      'Actions change the execution: the dashboard asks for a confirmation first.',
    );
  if (action === 'rollback') return rollback(facts, body.target, command);
  return liveCommand(facts, action as LiveAction, codonTarget(action as LiveAction, body.target));
}

/** A skip's or stop's `target`: the codon id the confirmation named (optional, for scripts). */
function codonTarget(action: LiveAction, target: unknown): string | undefined {
  if (target === undefined) return undefined;
  if (action === 'next')
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      'next takes no target',
      'It starts the next codon of the plan; send {"confirm": true} only.',
    );
  if (typeof target !== 'string' || target === '')
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      `A ${action}'s target must be the id of the running codon`,
      'Send the codonId the confirmation named, or no target to act on whichever codon runs.',
    );
  return target;
}

async function rollback(
  facts: ExecutionFacts,
  target: unknown,
  command: CommandLine | undefined,
): Promise<ActionResult> {
  if (typeof target !== 'string' || target === '')
    throw new HttpError(
      400,
      'BAD_PARAMETER',
      'A rollback needs a target: a checkpoint sha or last-success',
      'Pick a checkpoint from the list; last-success rolls back to the newest completed codon.',
    );
  if (facts.lock)
    throw new HttpError(
      409,
      'EXECUTION_RUNNING',
      `The execution ${facts.id} is running (pid ${facts.lock.pid})`,
      'Stop the run first (the stop action, or Ctrl-C in its terminal), then roll back.',
    );
  const result = await rollbackExecution(facts.dir, target, command ? { command } : {});
  return {
    ok: true,
    message: `Rolled back to ${result.codonId ?? 'the initial checkpoint'} ${shortSha(result.sha)} (new run ${result.toRun}); the tracked files are restored.`,
  };
}

async function liveCommand(
  facts: ExecutionFacts,
  action: LiveAction,
  codonId: string | undefined,
): Promise<ActionResult> {
  const lock = facts.lock;
  if (!lock)
    throw new HttpError(
      409,
      'EXECUTION_NOT_RUNNING',
      `The execution ${facts.id} is not running: there is nothing to ${action}`,
      'Resume it with `hankweave --execution <dir> --port 0`.',
    );
  if (lock.port === undefined || lock.token === undefined)
    throw new HttpError(
      409,
      'NO_WEBSOCKET',
      `The runtime of ${facts.id} (pid ${lock.pid}) serves no WebSocket, so it cannot take commands`,
      'Start the run with `--port 0` to control it from the dashboard.',
    );
  const client = await connectHankweave(`ws://${lock.host ?? '127.0.0.1'}:${lock.port}/ws`, {
    token: lock.token,
    mode: 'readandwrite',
    timeoutMs: 5_000,
  });
  try {
    const refused = await client.send(liveCommandOf(action, codonId));
    if (refused)
      throw HttpError.passing(
        409,
        refused.data.code ?? 'RUNTIME_REFUSED',
        refused.data.message,
        'The runtime refused the command in its current phase; the live view shows what it is doing.',
      );
    return { ok: true, message: doneMessage(action, codonId) };
  } finally {
    await client.close(1000, 'action sent');
  }
}
