import type { HankweaveState } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { twoRunState } from '../../test/fixture-state.js';
import { codonCost, runCost, totalCost } from './costs.js';
import {
  currentRun,
  failedCodons,
  lastSuccessfulCheckpoint,
  latestRun,
  runningCodon,
} from './inspect.js';

// Seed 000 "Common Inspection Tasks", each as written in the seed (on untyped JSON), against the
// one-liner this package offers. The seed code is kept verbatim apart from types.
// biome-ignore lint/suspicious/noExplicitAny: the seed's snippets work on untyped JSON.
type Json = any;

describe("seed 000 'Common Inspection Tasks' as one-liners", () => {
  const state: HankweaveState = twoRunState();
  const json: Json = JSON.parse(JSON.stringify(state));
  const seedCurrentRun = json.runs.find((r: Json) => r.runId === json.currentRunId);

  it('finds the currently running codon: runningCodon(currentRun(state))', () => {
    const seed = seedCurrentRun?.codons.find(
      (c: Json) => !['completed', 'failed', 'skipped'].includes(c.status),
    );
    expect(runningCodon(currentRun(state))).toEqual(seed);
    expect(runningCodon(currentRun(state))?.codonId).toBe('review#0');
  });

  it('gets the last successful checkpoint: lastSuccessfulCheckpoint(run)', () => {
    const r1 = json.runs[1];
    const completedCodons = r1?.codons.filter((c: Json) => c.status === 'completed') ?? [];
    const lastSuccess = completedCodons[completedCodons.length - 1];
    const checkpoint = lastSuccess?.completionCheckpoint;
    expect(lastSuccessfulCheckpoint(state.runs[1])).toBe(checkpoint);
    expect(checkpoint).toBe('done0001');
    expect(lastSuccessfulCheckpoint(currentRun(state))).toBeUndefined();
  });

  it('calculates the cost of the current run: runCost(currentRun(state))', () => {
    const seedRunCost = (run: Json): number =>
      run?.codons.reduce((total: number, codon: Json) => {
        let codonCostValue = 0;
        switch (codon.status) {
          case 'completed':
            codonCostValue = codon.finalCost ?? 0;
            break;
          case 'failed':
          case 'skipped':
            codonCostValue = codon.partialCost ?? 0;
            break;
          case 'running':
          case 'completing-sentinels':
            codonCostValue = codon.currentCost ?? 0;
            break;
        }
        const sentinelCost = codon.sentinels?.totalCost ?? 0;
        return total + codonCostValue + sentinelCost;
      }, 0) ?? 0;
    expect(runCost(currentRun(state))).toBeCloseTo(seedRunCost(seedCurrentRun), 12);
    expect(runCost(currentRun(state))).toBeCloseTo(0.021, 12);
    // totalCost is the same recipe over every run, sentinels and skipped codons included (the
    // seed's shorter "Reading State Programmatically" snippet leaves those two out).
    expect(totalCost(state)).toBeCloseTo(
      json.runs.reduce((sum: number, run: Json) => sum + seedRunCost(run), 0),
      12,
    );
    expect(totalCost(state)).toBeCloseTo(0.03 + 0.005 + 0.01 + 0.02 + 4 * 0.001, 12);
  });

  it('finds why a codon failed: failedCodons(run)[0]', () => {
    const r1 = json.runs[1];
    const failedCodon = r1?.codons.find((c: Json) => c.status === 'failed');
    const [why] = failedCodons(latestRun({ ...state, runs: state.runs.slice(1) }));
    expect(why).toMatchObject({
      codonId: failedCodon.codonId,
      failedDuring: failedCodon.failedDuring,
      message: failedCodon.failureReason.message,
      retriable: failedCodon.failureReason.retriable,
      exitCode: failedCodon.exitCode,
    });
    expect(why?.message).toBe('API request timed out after 30s');
  });

  it('prices one record with its sentinels: codonCost(record)', () => {
    expect(codonCost(state.runs[1]?.codons[0] as never)).toBeCloseTo(0.031, 12);
  });
});
