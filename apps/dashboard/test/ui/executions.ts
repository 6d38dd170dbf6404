import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import type { Sandbox } from '../cli.js';

/** A codon record as state.json holds it, read as plain JSON (the fields these tests read). */
export interface RecordJson {
  codonId: string;
  status: string;
  startTime: string;
  endTime?: string;
  finalCost?: number;
  partialCost?: number;
  currentCost?: number;
  sentinels?: { totalCost?: number };
  rigSetupCheckpoint?: string;
  completionCheckpoint?: string;
  errorCheckpoint?: string;
  skipCheckpoint?: string;
}

export interface RunJson {
  runId: string;
  status: string;
  startingConditions: { type: string; reason?: string; source?: { afterCodon: string | null } };
  codons: RecordJson[];
}

/** state.json parsed by hand: the tests check the API against it, not against our readers. */
export function stateFile(executionDir: string): { runs: RunJson[]; executionPlan: unknown[] } {
  return JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
}

/** events.jsonl parsed line by line. */
export function journalFile(executionDir: string): HankweaveEvent[] {
  return readFileSync(join(executionDir, '.hankweave', 'events', 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as HankweaveEvent);
}

/** A record's cost as seed 000 defines it (final, partial or current, plus sentinels). */
export function recordCost(record: RecordJson): number {
  const own =
    record.status === 'completed'
      ? (record.finalCost ?? 0)
      : record.status === 'failed' || record.status === 'skipped'
        ? (record.partialCost ?? 0)
        : (record.currentCost ?? 0);
  return own + (record.sentinels?.totalCost ?? 0);
}

/** Every record, oldest run first (state.json lists runs newest first). */
export const recordsOf = (state: { runs: RunJson[] }) =>
  [...state.runs]
    .reverse()
    .flatMap((run) =>
      run.codons.map((record, index) => ({ run, record, key: `${run.runId}~${index}` })),
    );

/** A copy of the example whose second codon's model call fails for good (a failed run). */
export function failingExample(sandbox: Sandbox) {
  const example = sandbox.copyExample('fail-hank');
  const script = JSON.parse(readFileSync(example.script, 'utf8'));
  script.conversations[1].turns[0].fail = { kind: 'prompt-too-long' };
  writeFileSync(example.script, JSON.stringify(script));
  return example;
}

/**
 * A copy of the example whose first tool call sleeps `seconds` (a run that stays live for a
 * while). Claude Code refuses a standalone `sleep`, hence the `ls` before it.
 */
export function slowExample(sandbox: Sandbox, name: string, seconds: number) {
  const example = sandbox.copyExample(name);
  const script = JSON.parse(readFileSync(example.script, 'utf8'));
  script.conversations[0].turns[0].content[1] = {
    bash: { command: `ls read_only_data_source && sleep ${seconds}`, description: 'Wait' },
  };
  writeFileSync(example.script, JSON.stringify(script));
  return example;
}

/** Waits until `check` returns a value (polling), or fails after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** runtime.lock of an execution, parsed by hand, once it exists. */
export function lockOf(
  executionDir: string,
): { pid: number; port?: number; token?: string } | undefined {
  const path = join(executionDir, '.hankweave', 'runtime.lock');
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
