import type { AgentStartOptions } from '../agent-harness.js';
import { HarnessError } from '../errors.js';
import { MAX_IDLE_TIMEOUT_MS } from './idle-watchdog.js';

/**
 * Checks what every harness needs before it starts anything.
 * @throws {HarnessError} HARNESS_INVALID_OPTIONS naming the first bad field.
 */
export function validateStartOptions(options: AgentStartOptions): void {
  for (const field of ['codonId', 'runId', 'model', 'cwd', 'logPath'] as const) {
    const value = options[field];
    if (typeof value !== 'string' || value === '') {
      throw new HarnessError('HARNESS_INVALID_OPTIONS', `${field} must be a non-empty string`, {
        details: { field },
      });
    }
  }
  if (typeof options.prompt !== 'string') {
    throw new HarnessError('HARNESS_INVALID_OPTIONS', 'prompt must be a string', {
      details: { field: 'prompt' },
    });
  }
  const idle = options.idleTimeoutMs;
  if (idle !== undefined && !(Number.isFinite(idle) && idle > 0 && idle <= MAX_IDLE_TIMEOUT_MS)) {
    throw new HarnessError(
      'HARNESS_INVALID_OPTIONS',
      `idleTimeoutMs must be between 1 and ${MAX_IDLE_TIMEOUT_MS} (got ${idle})`,
      { details: { field: 'idleTimeoutMs', value: idle } },
    );
  }
}
