import { createEventId, handshakeSchema } from '@hankweave/types';
import type { ClientSession } from './client-session.js';
import { CLOSE_CODES } from './codes.js';
import { tokenMatches } from './upgrade-guard.js';
import { targetedEvent, wireErrorOf } from './wire.js';

/** How many journaled events `sendPreviousEvents` replays (reference §3.1). */
export const HANDSHAKE_HISTORY_LIMIT = 50;

/**
 * Runs the handshake (reference §3.1, plus the token): replies `handshake.response` (with the last
 * 50 journaled events when asked), then `server.ready`, then `server.idle {reason: 'startup'}`
 * when the runtime waits for commands. Broadcasts emitted meanwhile are held and sent afterwards,
 * minus those already in `eventHistory`, so the client sees no gap and no duplicate.
 */
export async function performHandshake(session: ClientSession, message: unknown): Promise<void> {
  const parsed = handshakeSchema.safeParse(message);
  if (!parsed.success) {
    session.sendError(
      'HANDSHAKE_INVALID',
      `Invalid handshake: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(handshake)'}: ${issue.message}`).join('; ')}`,
    );
    return;
  }
  const { mode, sendPreviousEvents, token } = parsed.data.data;
  const { runtime, options } = session.host;
  // A token at the upgrade already passed; one in the handshake must be right too.
  const authorised =
    token !== undefined ? tokenMatches(token, options.token) : session.authenticated;
  if (!authorised) {
    session.sendError(
      'UNAUTHORIZED',
      token === undefined
        ? 'A token is required (see .hankweave/runtime.lock)'
        : 'Wrong token (see .hankweave/runtime.lock)',
    );
    session.close(CLOSE_CODES.UNAUTHORIZED, 'Unauthorized');
    return;
  }
  session.beginSync(mode);
  let seen = new Set<string>();
  try {
    const { journal, bus } = runtime.context;
    // Events emitted before this point may still be on their way to the journal.
    await bus.drain();
    const recent = sendPreviousEvents
      ? await journal.getMostRecentEvents(HANDSHAKE_HISTORY_LIMIT)
      : undefined;
    const totalEvents = recent?.totalEvents ?? (await journal.getTotalEvents());
    const eventHistory = recent?.events ?? [];
    seen = new Set(eventHistory.map((event) => event.id));
    session.send({
      id: createEventId(),
      timestamp: new Date().toISOString(),
      type: 'handshake.response',
      data: { clientId: session.id, mode, eventHistory, totalEvents },
    });
    session.send(targetedEvent('server.ready', session.host.serverReady()));
    if (!runtime.settings.autostart && runtime.phase === 'idle') {
      session.send(
        targetedEvent('server.idle', {
          reason: 'startup',
          message: 'Server ready. Waiting for commands (autostart disabled).',
        }),
      );
    }
  } catch (error) {
    // The journal is closed once the runtime has finished: nothing more to watch.
    const { code, message: text } = wireErrorOf(error);
    session.sendError(code, text);
    session.close(CLOSE_CODES.GOING_AWAY, 'The runtime has finished');
    return;
  }
  session.goLive(seen);
}
