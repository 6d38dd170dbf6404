import type { IdleAllowance } from './idle-watchdog.js';

/**
 * The idle allowance of an agent that prints nothing while one of its tools runs (Pi: a long
 * build, a test suite): while any tool runs, the silence allowed is at least `busyFloorMs`;
 * otherwise the idle time. The adapter's translation reports the tools it sees start and end;
 * the watchdog asks {@link BusyFloorAllowance.for} at every restart of its countdown.
 */
export class BusyFloorAllowance {
  private readonly running = new Set<string>();

  constructor(private readonly busyFloorMs: number) {}

  /** A tool call started (its id, so that two overlapping calls are told apart). */
  toolStarted(id: string): void {
    this.running.add(id);
  }

  /** A tool call ended. */
  toolEnded(id: string): void {
    this.running.delete(id);
  }

  /** The allowance for an idle time of `idleMs`: the busy floor while a tool runs. */
  for(idleMs: number): IdleAllowance {
    return () => (this.running.size > 0 ? Math.max(idleMs, this.busyFloorMs) : idleMs);
  }
}
