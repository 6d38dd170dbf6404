import { existsSync } from 'node:fs';
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { sleep } from '@hankweave/durable-io';
import { eventCodonId, journalPath, readExecutionState } from '@hankweave/inspection';
import { type EventJournal, openJournalReadOnly } from '@hankweave/journal';
import { executionThread } from '@hankweave/state';
import {
  EVENT_TYPES,
  type HankweaveState,
  JOURNALED_EVENT_TYPES,
  type ParallelContext,
  suggestKey,
} from '@hankweave/types';
import { completeWith } from '../completion/value-sources.js';
import { withExecutionOptions } from '../execution/execution-options.js';
import { findExecution } from '../execution/find-execution.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { type CliEvent, describeEvent } from '../output/describe-event.js';
import { fit } from '../output/format.js';
import { branchLanesOf, laneCodonLabel, laneLabel, lanesOf } from '../output/lanes.js';
import type { Terminal } from '../output/terminal.js';
import { collect } from './collect.js';
import type { CommandContext, OptionsOf } from './command-context.js';

/** What `events --type` takes: every event type, and each family as a prefix (`codon.*`). */
const EVENT_TYPE_WORDS = [
  ...EVENT_TYPES,
  ...new Set(EVENT_TYPES.map((type) => `${type.split('.')[0]}.*`)),
];

const declare = (program: CommandUnknownOpts) =>
  withExecutionOptions(
    program
      .command('events')
      .description('the event journal: the last events, filtered; --follow for new ones'),
  )
    .option('-n, --tail <count>', 'how many events to show ("all" or 0 for every event)', '20')
    .option('-f, --follow', 'keep printing new events until Ctrl-C')
    .addOption(
      completeWith(
        new Option(
          '-t, --type <type>',
          'only this event type (repeatable, comma-separated, `codon.*` for a prefix)',
        ).argParser(collect),
        EVENT_TYPE_WORDS,
      ),
    )
    .addOption(
      completeWith(
        new Option(
          '-c, --codon <id>',
          'only events of this codon (a loop codon id matches every iteration)',
        ).argParser(collect),
        'codons',
      ),
    )
    .addOption(
      completeWith(
        new Option(
          '-b, --branch <block/branch>',
          "only events of a parallel block's branch (repeatable, comma-separated; a branch id alone when unique)",
        ).argParser(collect),
        'branches',
      ),
    )
    .option('--json', 'print raw NDJSON events');

/**
 * The flags of `hankweave events`, inferred from their declaration; partial because callers
 * other than the command line (tests) leave out what has a default (`--tail`).
 */
export type EventsOptions = Partial<OptionsOf<typeof declare>> & {
  /** Poll interval of --follow, in ms (no flag: tests shorten it). */
  pollMs?: number;
};

/** Adds `hankweave events` to `program`; Ctrl-C or SIGTERM stops `--follow` (not the process). */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (options) => {
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      done(await eventsCommand(terminal, options, abort.signal));
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  });
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
  const state = await readStateOrUndefined(executionDir);
  // Which codon runs in which branch of a parallel block: event lines name the branch.
  let lanes = lanesOf(state);
  const filter = parseFilter(options);
  const branchLanes = branchLanesOf(filter.branches, lanes);
  // Looked up at each event, so a loop iteration the plan gains while following still matches.
  const inBranches = branchLanes
    ? (codonId: string) => {
        const parallel = lanes.get(codonId);
        return parallel !== undefined && branchLanes.has(laneLabel(parallel));
      }
    : undefined;
  const matches = eventFilter(filter, inBranches);
  const print = (event: CliEvent) => printEvent(terminal, event, options.json === true, lanes);
  // --follow: a codon the plan did not hold (a loop's next iteration inside a branch) has the
  // plan read again for its lane, before its events are filtered and printed.
  const refreshLanes = async (events: readonly CliEvent[]) => {
    const unknown = events.some((event) => {
      const codonId = eventCodonId(event);
      return event.type === 'codon.started' && codonId !== undefined && !lanes.has(codonId);
    });
    const next = unknown ? await readStateOrUndefined(executionDir) : undefined;
    if (next) lanes = lanesOf(next);
  };
  const journal = await openJournalReadOnly(path);
  try {
    // One pass from the start: keeps the last `tail` matches and ends with the cursor at the end;
    // it also collects the types and codons the journal holds, to check the filter against.
    const kept: CliEvent[] = [];
    const seen = { types: new Set<string>(), codons: new Set<string>() };
    let cursor: string | undefined;
    for (;;) {
      const page = await journal.getEventsAfter(cursor, PAGE);
      cursor = page.nextCursor;
      // Typed as known events, but the journal checks only a line's envelope: `matches` and
      // `print` take any CliEvent, so a newer runtime's types are shown as JSON.
      for (const event of page.events) {
        seen.types.add(event.type);
        const codonId = eventCodonId(event);
        if (codonId) seen.codons.add(codonId);
        if (!matches(event)) continue;
        kept.push(event);
        if (tail > 0 && kept.length > tail) kept.shift();
      }
      if (!page.hasMore) break;
    }
    checkTypes(filter.types, seen.types);
    if (filter.codons.length > 0)
      checkCodons(filter.codons, await executionCodonIds(executionDir, seen.codons));
    for (const event of kept) print(event);
    if (options.follow)
      await follow(journal, cursor, matches, print, options.pollMs ?? 250, signal, refreshLanes);
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
  beforePage?: (events: readonly CliEvent[]) => Promise<void>,
): Promise<void> {
  let cursor = start;
  while (!signal?.aborted) {
    const page = await journal.getEventsAfter(cursor, PAGE);
    cursor = page.nextCursor;
    await beforePage?.(page.events);
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
      `Example: ${commandHint('events', '-n', '50')}`,
    );
  return count;
}

interface EventsFilter {
  types: string[];
  codons: string[];
  branches: string[];
}

/** `-t a,b -t c` → `[a, b, c]`: the flags repeat and take comma-separated lists. */
const listOf = (values: string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);

function parseFilter(options: EventsOptions): EventsFilter {
  return {
    types: listOf(options.type),
    codons: listOf(options.codon),
    branches: listOf(options.branch),
  };
}

/** `--type codon.completed,error` (a trailing `*` matches a prefix) and `--codon id` (loop ids match every iteration). */
function eventFilter(
  { types, codons }: EventsFilter,
  inBranches?: (codonId: string) => boolean,
): (event: CliEvent) => boolean {
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
    if (inBranches) {
      const codonId = eventCodonId(event);
      if (!codonId || !inBranches(codonId)) return false;
    }
    return true;
  };
}

async function readStateOrUndefined(executionDir: string): Promise<HankweaveState | undefined> {
  try {
    return await readExecutionState(executionDir);
  } catch {
    return undefined;
  }
}

/**
 * A misspelt type would otherwise match nothing, and `--follow` would wait forever in silence.
 * Valid: every journaled type this version knows, and any type the journal holds (a newer
 * runtime's); `prefix.*` when some valid type starts with the prefix.
 */
function checkTypes(types: readonly string[], inJournal: ReadonlySet<string>): void {
  if (types.length === 0) return;
  const valid = [...new Set<string>([...JOURNALED_EVENT_TYPES, ...inJournal])].sort();
  const families = [...new Set(valid.map((type) => `${type.split('.')[0]}.*`))];
  for (const type of types) {
    const known = type.endsWith('*')
      ? valid.some((candidate) => candidate.startsWith(type.slice(0, -1)))
      : valid.includes(type);
    if (known) continue;
    const suggestion = suggestKey(type, type.endsWith('*') ? families : valid);
    throw new CliError(
      'CLI_USAGE',
      `Unknown event type "${type}" for --type${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
      `Valid types: ${valid.join(', ')}. A trailing * matches a prefix, e.g. --type "codon.*".`,
    );
  }
}

/**
 * The codon ids a `--codon` may name: the execution's plan and records (state.json) and the
 * codons its journal mentions, each loop iteration (`pass#1`) also by its codon id (`pass`).
 */
async function executionCodonIds(
  executionDir: string,
  inJournal: ReadonlySet<string>,
): Promise<string[]> {
  const ids = new Set(inJournal);
  try {
    const state = await readExecutionState(executionDir);
    for (const entry of state.executionPlan) ids.add(entry.codonId);
    for (const { codon } of executionThread(state).codons) ids.add(codon.codonId);
  } catch {
    // No readable state yet: the journal's codons are all there is to check against.
  }
  for (const id of [...ids]) ids.add(id.split('#')[0] as string);
  return [...ids].sort();
}

function checkCodons(codons: readonly string[], valid: readonly string[]): void {
  // An execution that has not planned a codon yet cannot say which ids will exist.
  if (valid.length === 0) return;
  for (const codon of codons) {
    if (valid.includes(codon)) continue;
    const suggestion = suggestKey(codon, valid);
    throw new CliError(
      'CLI_USAGE',
      `No codon "${codon}" in this execution${suggestion ? `. Did you mean "${suggestion}"?` : ''}`,
      `Codons of this execution: ${valid.join(', ')}. A loop codon id (without #n) matches every iteration.`,
    );
  }
}

/** Prints one event as a line (time, type, codon, description), or as NDJSON. */
export function printEvent(
  terminal: Terminal,
  event: CliEvent,
  json: boolean,
  lanes?: ReadonlyMap<string, ParallelContext>,
): void {
  if (json) {
    terminal.out(JSON.stringify(event));
    return;
  }
  const { style } = terminal;
  const time = event.timestamp.slice(11, 23);
  const codonId = eventCodonId(event) ?? '';
  // A branch's codon carries its branch (`[review/left] style`), whole: concurrent branches interleave.
  const label = laneCodonLabel(codonId, lanes?.get(codonId));
  terminal.out(
    `${style.dim(time)} ${style.cyan(fit(event.type, 24))} ${fit(label, Math.max(14, Array.from(label).length))} ${describeEvent(event)}`,
  );
}
