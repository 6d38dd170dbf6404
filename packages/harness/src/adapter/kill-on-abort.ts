import type { AgentSession } from '../agent-harness.js';

/**
 * Honours `AgentStartOptions.signal` for a session: kills it (reason `aborted`) when the signal
 * aborts, at once when it already has, and forgets the signal once the session's outcome is in.
 */
export function killOnAbort(
  session: Pick<AgentSession, 'kill' | 'outcome'>,
  signal: AbortSignal | undefined,
): void {
  if (!signal) return;
  const onAbort = () => void session.kill('aborted');
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  void session.outcome.then(() => signal.removeEventListener('abort', onAbort));
}
