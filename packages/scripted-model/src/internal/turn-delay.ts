import type { ServerResponse } from 'node:http';

/**
 * Serves a turn after its `delayMs` (at once without one), as a model that takes that long to
 * answer; nothing is sent if the client has gone meanwhile.
 */
export function afterTurnDelay(
  res: ServerResponse,
  delayMs: number | undefined,
  serve: () => void,
): void {
  if (!delayMs) {
    serve();
    return;
  }
  const cancel = () => clearTimeout(timer);
  const timer = setTimeout(() => {
    res.off('close', cancel);
    if (!res.destroyed) serve();
  }, delayMs);
  res.once('close', cancel);
}
