import type { RuntimeLogger } from '../src/events/server-log.js';

/** A RuntimeLogger that keeps every line as `LEVEL message`, for tests that assert what was said. */
export function recordingLogger(): { lines: string[]; log: RuntimeLogger } {
  const lines: string[] = [];
  const log = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return {
    lines,
    log: { debug: log('DEBUG'), info: log('INFO'), warn: log('WARN'), error: log('ERROR') },
  };
}
