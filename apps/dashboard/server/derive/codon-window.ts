import type { HankweaveState } from '@hankweave/types';
import { barKey, chronologicalRecords, type PlacedRecord } from './codon-bars.js';

/**
 * Which journal events belong to one codon record: those naming its codon id whose time falls in
 * `[fromMs, toMs)`. The window runs from the record's start to the start of the next record of
 * the same codon id (a retry, a re-run after a rollback), so events written after the record
 * ended (`codon.completed`, sentinels draining) stay with it; the first record also takes what
 * came before it, the last one everything after.
 */
export interface CodonWindow {
  placed: PlacedRecord;
  codonId: string;
  fromMs: number;
  toMs: number;
}

/** Times as ms; an unreadable one sorts first, so it never hides events. */
const timeOf = (text: string): number => {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
};

/**
 * The window of the record a codon URL names, or undefined for no such record: a bar key
 * (`{runId}~{index}`, one attempt), or a codon id meaning its newest record (`summarize`; a loop
 * iteration `polish-pass#1`; a loop codon `polish-pass`, its newest iteration), so a URL typed
 * from a codon id works as well as one copied from the timeline.
 */
export function codonWindow(state: HankweaveState, keyOrId: string): CodonWindow | undefined {
  const records = chronologicalRecords(state);
  let position = records.findIndex(({ run, index }) => barKey(run.runId, index) === keyOrId);
  if (position < 0)
    position = records.findLastIndex(
      ({ record }) => record.codonId === keyOrId || record.codonId.startsWith(`${keyOrId}#`),
    );
  const placed = records[position];
  if (!placed) return undefined;
  const codonId = placed.record.codonId;
  const same = records.filter(({ record }) => record.codonId === codonId);
  const nth = same.indexOf(placed);
  const next = same[nth + 1];
  return {
    placed,
    codonId,
    fromMs: nth === 0 ? Number.NEGATIVE_INFINITY : timeOf(placed.record.startTime),
    toMs: next ? timeOf(next.record.startTime) : Number.POSITIVE_INFINITY,
  };
}
