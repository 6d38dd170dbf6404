import { existsSync } from 'node:fs';
import { sleep } from '@hankweave/durable-io';
import { type EventJournal, openJournalReadOnly } from '@hankweave/journal';
import { type ExecutionSelector, findExecution } from '../execution/find-execution.js';
import { journalPath } from '../execution/open-inspection.js';
import { CliError } from '../output/cli-error.js';
import { type CliEvent, describeEvent, eventCodonId } from '../output/describe-event.js';
import { fit } from '../output/format.js';
import type { Terminal } from '../output/terminal.js';

export interface EventsOptions extends ExecutionSelector {
  tail?: string;
  follow?: boolean;
  type?: string[];
  codon?: string[];
  json?: boolean;
  /** Poll interval of --follow, in ms. */
  pollMs?: number;
}

const PAGE = 1000;

/**
 * `hankweave events`: the last N events of the journal (filtered by type or codon), then with
 * `--follow` every new one as it is appended (polling with `getEventsAfter` cursors) until
 * Ctrl-C. Read-only.
 */
export async function eventsCommand(
  terminal: Terminal,
  options: EventsOptions,
  signal?: AbortSignal,
): Promise<number> {
  const executionDir = await findExecution(options);
  const path = journalPath(executionDir);
  if (!existsSync(path))
    throw new CliError(
      'CLI_NOT_FOUND',
      `${executionDir} has no event journal yet`,
      'Events appear once the hank has started.',
    );
  const tail = parseTail(options.tail);
  const matches = eventFilter(options);
  const print = (event: CliEvent) => printEvent(terminal, event, options.json === true);
  const journal = await openJournalReadOnly(path);
  try {
    // One pass from the start: keeps the last `tail` matches and ends with the cursor at the end.
    const kept: CliEvent[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await journal.getEventsAfter(cursor, PAGE);
      cursor = page.nextCursor;
      // Typed as known events, but the journal checks only a line's envelope: `matches` and
      // `print` take any CliEvent, so a newer runtime's types are shown as JSON.
      for (const event of page.events) {
        if (!matches(event)) continue;
        kept.push(event);
        if (tail > 0 && kept.length > tail) kept.shift();
      }
      if (!page.hasMore) break;
    }
    for (const event of kept) print(event);
    if (options.follow)
      await follow(journal, cursor, matches, print, options.pollMs ?? 250, signal);
    return 0;
  } finally {
    await journal.close();
  }
}

async function follow(
  journal: EventJournal,
  start: string | undefined,
  matches: (event: CliEvent) => boolean,
  print: (event: CliEvent) => void,
  pollMs: number,
  signal?: AbortSignal,
): Promise<void> {
  let cursor = start;
  while (!signal?.aborted) {
    const page = await journal.getEventsAfter(cursor, PAGE);
    cursor = page.nextCursor;
    for (const event of page.events) if (matches(event)) print(event);
    if (!page.hasMore) await sleep(pollMs, signal);
  }
}

function parseTail(value: string | undefined): number {
  if (value === undefined) return 20;
  if (value === 'all') return 0;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0)
    throw new CliError(
      'CLI_USAGE',
      `--tail expects a number of events (0 or "all" for every event), got ${value}`,
      'Example: hankweave events -n 50',
    );
  return count;
}

/** `--type codon.completed,error` (a trailing `*` matches a prefix) and `--codon id` (loop ids match every iteration). */
function eventFilter(options: EventsOptions): (event: CliEvent) => boolean {
  const types = (options.type ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  const codons = (options.codon ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  return (event) => {
    if (
      types.length > 0 &&
      !types.some((type) =>
        type.endsWith('*') ? event.type.startsWith(type.slice(0, -1)) : event.type === type,
      )
    )
      return false;
    if (codons.length > 0) {
      const codonId = eventCodonId(event);
      if (!codonId || !codons.some((codon) => codonId === codon || codonId.startsWith(`${codon}#`)))
        return false;
    }
    return true;
  };
}

/** Prints one event as a line (time, type, codon, description), or as NDJSON. */
export function printEvent(terminal: Terminal, event: CliEvent, json: boolean): void {
  if (json) {
    terminal.out(JSON.stringify(event));
    return;
  }
  const { style } = terminal;
  const time = event.timestamp.slice(11, 23);
  terminal.out(
    `${style.dim(time)} ${style.cyan(fit(event.type, 24))} ${fit(eventCodonId(event) ?? '', 14)} ${describeEvent(event)}`,
  );
}
