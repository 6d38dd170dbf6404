/** Builds CodonBar fixtures for the timeline's tests: only what a test cares about is given. */
import type { CodonBar } from '../../api/types.js';

const T0 = Date.parse('2026-01-01T10:00:00Z');

/** A bar from minute `startMin` to `endMin` (absent end: still running). */
export function bar(
  codonId: string,
  startMin: number,
  endMin: number | undefined,
  over: Partial<CodonBar> = {},
): CodonBar {
  const runId = over.runId ?? 'run-1';
  return {
    key: `${runId}~${codonId}~${startMin}`,
    runId,
    codonId,
    name: codonId,
    status: endMin === undefined ? 'running' : 'completed',
    startTime: new Date(T0 + startMin * 60_000).toISOString(),
    endTime: endMin === undefined ? undefined : new Date(T0 + endMin * 60_000).toISOString(),
    costUsd: 0.01,
    tokens: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0 },
    extensions: 0,
    attempt: 1,
    checkpoints: [],
    ...over,
  };
}

export const minute = (m: number): number => T0 + m * 60_000;
