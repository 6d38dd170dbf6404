import { createEventId, handshakeSchema } from '@hankweave/types';
import { CLOSE_CODES } from './close-codes.js';
import type { Connection } from './connection.js';
import { tokenMatches } from './upgrade-guard.js';
import { type ErrorContext, targetedEvent, wireErrorOf } from './wire.js';

/** How many journaled events `sendPreviousEvents` replays (reference §3.1). */
export const HANDSHAKE_HISTORY_LIMIT = 50;

/**
 * Runs the handshake (reference §3.1, plus the token): replies `handshake.response` (with the last
 * 50 journaled events when asked), then `server.ready`, then `server.idle {reason: 'startup'}`
 * when the runtime waits for commands. Broadcasts emitted meanwhile are held and sent afterwards,
 * minus those the journal already held when it was read (counted in `totalEvents`, and in
 * `eventHistory` when they are among the newest 50), so the client sees no gap and no duplicate.
 */
export async function performHandshake(
  connection: Connection,
  message: unknown,
  context: ErrorContext = {},
): Promise<void> {
  const parsed = handshakeSchema.safeParse(message);
  if (!parsed.success) {
    connection.sendError(
      'HANDSHAKE_INVALID',
      `Invalid handshake: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(handshake)'}: ${issue.message}`).join('; ')}`,
      context,
    );
    return;
  }
  const { mode, sendPreviousEvents, token } = parsed.data.data;
  const { runtime, options } = connection.host;
  // A token at the upgrade already passed; one in the handshake must be right too.
  const authorised =
    token !== undefined ? tokenMatches(token, options.token) : connection.authenticated;
  if (!authorised) {
    connection.sendError(
      'UNAUTHORIZED',
      token === undefined
        ? 'A token is required (see .hankweave/runtime.lock)'
        : 'Wrong token (see .hankweave/runtime.lock)',
      context,
    );
    connection.close(CLOSE_CODES.UNAUTHORIZED, 'Unauthorized');
    return;
  }
  connection.beginSync(mode);
  let inJournal = new Set<string>();
  try {
    // Events emitted before this point may still be on their way to the journal.
    await runtime.drainEvents();
    // Broadcasts are held from `beginSync` on, and some of them are in the journal by the time it
    // is read: one read gives the total and the newest events, so the held events it covers are
    // recognised by id and not sent again. Live events then begin exactly after `totalEvents`.
    // (The window is sized after the drain: events held during it must fit.)
    const window = () =>
      Math.max(sendPreviousEvents ? HANDSHAKE_HISTORY_LIMIT : 0, connection.held + 16);
    let recent = await runtime.recentEvents(window());
    for (
      let read = 1;
      read < 4 && recent.hasMore && connection.held >= recent.events.length;
      read++
    )
      recent = await runtime.recentEvents(window());
    const { totalEvents } = recent;
    const eventHistory = sendPreviousEvents ? recent.events.slice(-HANDSHAKE_HISTORY_LIMIT) : [];
    inJournal = new Set(recent.events.map((event) => event.id));
    connection.send({
      id: createEventId(),
      timestamp: new Date().toISOString(),
      type: 'handshake.response',
      data: { clientId: connection.id, mode, eventHistory, totalEvents },
    });
    connection.send(targetedEvent('server.ready', connection.host.serverReady()));
    if (!runtime.autostart && runtime.phase === 'idle') {
      connection.send(
        targetedEvent('server.idle', {
          reason: 'startup',
          message: 'Server ready. Waiting for commands (autostart disabled).',
        }),
      );
    }
  } catch (error) {
    // The journal is closed once the runtime has finished: nothing more to watch.
    const { code, message: text } = wireErrorOf(error);
    connection.sendError(code, text);
    connection.close(CLOSE_CODES.GOING_AWAY, 'The runtime has finished');
    return;
  }
  connection.goLive(inJournal);
}
