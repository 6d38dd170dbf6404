import type { HankweaveEvent } from '@hankweave/types';
import type { CodonDetail, FileChange } from '../../src/api/types.js';
import { barKey, codonBars, planCodonOf } from '../derive/codon-bars.js';
import { type CodonWindow, codonWindow } from '../derive/codon-window.js';
import type { ExecutionFacts } from '../derive/execution-summary.js';
import type { EventIndex } from '../events/event-index.js';
import type { ExecutionCatalog } from '../execution-catalog.js';
import { HttpError } from '../http/http-error.js';
import { changeStatus, withCheckpoints } from './checkpoints.js';
import { codonPrompt } from './codon-prompt.js';

/** The events of one type of a codon record, through the execution's index. */
async function eventsOf<T extends HankweaveEvent['type']>(
  index: EventIndex,
  window: CodonWindow,
  type: T,
): Promise<HankweaveEvent<T>[]> {
  const ordinals = index.matching({ codon: window, types: [type] }) ?? [];
  return (await index.read(ordinals)) as HankweaveEvent<T>[];
}

/**
 * The files a codon record changed: from the first parent of its first checkpoint (the tree it
 * started from: the previous codon's end, or the checkpoint a rollback restored) to its last
 * checkpoint. Empty while it has no checkpoint or when the repository cannot be read.
 */
async function filesChanged(
  dir: string,
  checkpoints: { type: string; sha: string }[],
): Promise<{ files: FileChange[]; range?: { from: string; to: string } }> {
  const first = checkpoints[0];
  const last = checkpoints[checkpoints.length - 1];
  if (!first || !last) return { files: [] };
  try {
    return await withCheckpoints(dir, async (engine) => {
      const info = (await engine.list()).find((checkpoint) => checkpoint.sha === first.sha);
      const start = info?.parents[0];
      if (!start) return { files: [] };
      const entries = await engine.diff(start, last.sha, { patch: false });
      return {
        files: entries.map((entry) => ({ path: entry.path, status: changeStatus(entry) })),
        range: { from: start, to: last.sha },
      };
    });
  } catch {
    return { files: [] };
  }
}

/** `GET /api/executions/:id/codons/:key`: one codon record in depth. */
export async function codonDetail(
  catalog: ExecutionCatalog,
  facts: ExecutionFacts,
  key: string,
): Promise<CodonDetail> {
  const state = facts.state;
  const window = state ? codonWindow(state, key) : undefined;
  const barKeyOf = window ? barKey(window.placed.run.runId, window.placed.index) : undefined;
  const bar = state ? codonBars(state).find((candidate) => candidate.key === barKeyOf) : undefined;
  if (!state || !window || !bar)
    throw new HttpError(
      404,
      'CODON_NOT_FOUND',
      `No codon ${JSON.stringify(key.slice(0, 200))} in the execution ${facts.id}`,
      'Name a codon by its id (`summarize`, a loop iteration `polish-pass#1`: its newest attempt) or one attempt by its timeline key `{runId}~{index in run}`.',
    );
  let eventCount = 0;
  let usage: CodonDetail['usage'] = [];
  let sentinels: CodonDetail['sentinels'] = [];
  // An execution without a journal yet has a bar but no events.
  const opened = await catalog.journal(facts.id).catch(() => undefined);
  if (opened) {
    const { index } = opened;
    await index.refresh();
    eventCount = index.matching({ codon: window })?.length ?? 0;
    // token.usage events are increments (their final one reconciles to the final cost).
    let input = 0;
    let output = 0;
    let cost = 0;
    usage = (await eventsOf(index, window, 'token.usage')).map((event) => {
      input += event.data.inputTokens;
      output += event.data.outputTokens;
      cost += event.data.totalCost;
      return { t: event.timestamp, input, output, costUsd: cost };
    });
    sentinels = (await eventsOf(index, window, 'sentinel.output')).map((event) => ({
      sentinelId: event.data.sentinelId,
      t: event.timestamp,
      content: event.data.content,
      costUsd: event.data.cost,
    }));
  }
  const prompt = await codonPrompt(
    planCodonOf(state, window.codonId),
    facts.meta?.hankPath ?? facts.fleet?.hankPath,
    facts.dir,
  );
  // A fleet execution whose files are elsewhere has no checkpoints to read here.
  const changed: Awaited<ReturnType<typeof filesChanged>> =
    facts.fleet && !facts.fleet.files
      ? { files: [] }
      : await filesChanged(facts.dir, bar.checkpoints);
  return {
    bar,
    ...(prompt !== undefined ? { prompt } : {}),
    usage,
    files: changed.files,
    ...(changed.range !== undefined ? { diffRange: changed.range } : {}),
    sentinels,
    eventCount,
  };
}
