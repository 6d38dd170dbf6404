import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runNativeGit } from '@hankweave/checkpoints/testing';
import { readState } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import type { PrintedEvent } from './cli-lifetime.js';

/** The invariants checked after every kill, by name. */
export const KILL_INVARIANTS = [
  'state-loads-and-validates',
  'journal-lines-parse',
  'event-ids-unique',
  'timestamps-monotonic',
  'git-fsck-clean',
  'checkpoints-exist',
  'no-acknowledged-completion-lost',
] as const;
/** The invariants checked once an episode's hank has completed. */
export const END_INVARIANTS = ['hank-completes-on-resume', 'files-match-clean-run'] as const;
/** Any invariant's name. */
export type InvariantName = (typeof KILL_INVARIANTS)[number] | (typeof END_INVARIANTS)[number];

/** One broken invariant: `key` names the broken thing, so a failure seen again is counted once. */
export interface InvariantFailure {
  invariant: InvariantName;
  key: string;
  message: string;
}

/** A `codon.completed {success: true}` the world saw: printed on stdout or journaled. */
export interface AcknowledgedCompletion {
  eventId: string;
  codonId: string;
  /** The run the completion belongs to: that of the codon's latest `state.transition` before it. */
  runId: string;
  source: 'stdout' | 'journal';
}

/** A journal as read from disk: its parsed events and what did not parse. */
export interface JournalRead {
  events: PrintedEvent[];
  /** Complete lines (ending in a newline) that are not an event: never allowed. */
  badLines: { line: number; text: string; problem: string }[];
  /** A last line with no newline: an append the kill tore, allowed until the next open. */
  tornTail: boolean;
}

const hankweaveDirOf = (executionDir: string): string => join(executionDir, '.hankweave');
const journalPathOf = (executionDir: string): string =>
  join(hankweaveDirOf(executionDir), 'events', 'events.jsonl');
/** The shadow repository of an execution. */
export const shadowRepoOf = (executionDir: string): string =>
  join(hankweaveDirOf(executionDir), 'checkpoints', '.hankweavecheckpoints');

/** Reads events.jsonl: every complete line must be an event with an id, a type and a time. */
export function readJournal(executionDir: string): JournalRead {
  const path = journalPathOf(executionDir);
  if (!existsSync(path)) return { events: [], badLines: [], tornTail: false };
  const lines = readFileSync(path, 'utf8').split('\n');
  // The text after the last newline: empty, or a line whose append was cut by the kill.
  const tail = lines.pop() ?? '';
  const events: PrintedEvent[] = [];
  const badLines: JournalRead['badLines'] = [];
  lines.forEach((text, index) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      badLines.push({ line: index + 1, text, problem: `not JSON (${(error as Error).message})` });
      return;
    }
    const event = value as Partial<PrintedEvent> | null;
    const problem =
      typeof event !== 'object' || event === null
        ? 'not an object'
        : typeof event.id !== 'string' || event.id === ''
          ? 'no string id'
          : typeof event.type !== 'string' || event.type === ''
            ? 'no string type'
            : typeof event.timestamp !== 'string' || Number.isNaN(Date.parse(event.timestamp))
              ? 'no ISO timestamp'
              : undefined;
    if (problem) badLines.push({ line: index + 1, text, problem });
    else events.push(event as PrintedEvent);
  });
  return { events, badLines, tornTail: tail !== '' };
}

/**
 * The acknowledged completions in a sequence of events (one lifetime's stdout, or the journal):
 * each `codon.completed {success: true}`, with the run of its codon's latest `state.transition`.
 */
export function completionsIn(
  events: readonly PrintedEvent[],
  source: AcknowledgedCompletion['source'],
): AcknowledgedCompletion[] {
  const runOfCodon = new Map<string, string>();
  const completions: AcknowledgedCompletion[] = [];
  for (const event of events) {
    const codonId = event.data?.codonId;
    if (typeof codonId !== 'string') continue;
    if (event.type === 'state.transition' && typeof event.data.runId === 'string')
      runOfCodon.set(codonId, event.data.runId);
    if (event.type === 'codon.completed' && event.data.success === true)
      completions.push({
        eventId: event.id,
        codonId,
        runId: runOfCodon.get(codonId) ?? '(no state.transition of this codon before it)',
        source,
      });
  }
  return completions;
}

/** Every checkpoint sha named anywhere in the state (fields whose name says checkpoint or sha). */
export function checkpointShas(state: unknown): Map<string, string> {
  const shas = new Map<string, string>();
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, `${path}[${index}]`);
      });
    } else if (value !== null && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        const where = path ? `${path}.${key}` : key;
        if (
          typeof child === 'string' &&
          /checkpoint|sha$/i.test(key) &&
          /^[0-9a-f]{40}$/.test(child) &&
          !shas.has(child)
        )
          shas.set(child, where);
        else visit(child, where);
      }
  };
  // The plan holds the hank's codon configs verbatim: nothing there names a checkpoint.
  const { executionPlan: _plan, ...rest } = state as HankweaveState;
  visit(rest, '');
  return shas;
}

/** What {@link checkAfterKill} found. */
export interface KillCheck {
  /** How many named invariants were evaluated. */
  checked: number;
  failures: InvariantFailure[];
  /** The state read (undefined when none could be read). */
  state?: HankweaveState;
  journal: JournalRead;
}

/**
 * Checks every invariant of {@link KILL_INVARIANTS} on an execution whose processes are all dead.
 * `acknowledged` holds the completions printed on stdout so far; those in the journal are added.
 */
export async function checkAfterKill(
  executionDir: string,
  acknowledged: readonly AcknowledgedCompletion[],
): Promise<KillCheck> {
  const failures: InvariantFailure[] = [];
  const fail = (invariant: InvariantName, key: string, message: string): void => {
    failures.push({ invariant, key, message });
  };
  const hankweaveDir = hankweaveDirOf(executionDir);

  // state-loads-and-validates: state.json is replaced by an atomic rename, so a kill leaves the
  // previous save or the new one, never a torn file that sends recovery to the backup.
  let state: HankweaveState | undefined;
  try {
    const read = await readState(hankweaveDir);
    state = read.state;
    const primaryExists = existsSync(join(hankweaveDir, 'state.json'));
    if (!read.validation.valid)
      fail(
        'state-loads-and-validates',
        'invalid',
        `state.json does not validate: ${read.validation.errors.map((error) => `${error.type}: ${error.message}`).join('; ')}`,
      );
    else if (primaryExists && read.source !== 'primary')
      fail(
        'state-loads-and-validates',
        'not-primary',
        `state.json exists but was not used (${read.recovery.reason}): ${JSON.stringify(read.recovery.rejected)}`,
      );
  } catch (error) {
    fail('state-loads-and-validates', 'throws', `readState threw: ${(error as Error).message}`);
  }

  // journal-lines-parse, event-ids-unique, timestamps-monotonic.
  const journal = readJournal(executionDir);
  for (const bad of journal.badLines)
    fail(
      'journal-lines-parse',
      `line ${bad.line}`,
      `events.jsonl line ${bad.line} is ${bad.problem}: ${bad.text.slice(0, 200)}`,
    );
  const seen = new Map<string, number>();
  journal.events.forEach((event, index) => {
    const first = seen.get(event.id);
    if (first !== undefined)
      fail(
        'event-ids-unique',
        event.id,
        `event id ${event.id} appears at events ${first + 1} and ${index + 1} of events.jsonl`,
      );
    else seen.set(event.id, index);
    const previous = journal.events[index - 1];
    if (previous && Date.parse(event.timestamp) < Date.parse(previous.timestamp))
      fail(
        'timestamps-monotonic',
        event.id,
        `event ${index + 1} (${event.type} ${event.id}, ${event.timestamp}) is older than ` +
          `event ${index} (${previous.type}, ${previous.timestamp})`,
      );
  });

  // git-fsck-clean and checkpoints-exist, with native git on the shadow repository.
  const repoExists = existsSync(join(shadowRepoOf(executionDir), 'HEAD'));
  const shas = state ? checkpointShas(state) : new Map<string, string>();
  if (repoExists) {
    const fsck = runNativeGit(executionDir, ['fsck', '--full', '--no-progress', '--strict'], {
      allowFailure: true,
    });
    const complaints = `${fsck.stdout}\n${fsck.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^(dangling|notice: HEAD points)/.test(line));
    if (fsck.status !== 0 || complaints.length > 0)
      fail(
        'git-fsck-clean',
        'fsck',
        `git fsck --full exited ${fsck.status}: ${complaints.join(' | ').slice(0, 1000)}`,
      );
    if (shas.size > 0) {
      const batch = runNativeGit(executionDir, ['cat-file', '--batch-check'], {
        input: `${[...shas.keys()].join('\n')}\n`,
        allowFailure: true,
      });
      const types = new Map(
        batch.stdout
          .trim()
          .split('\n')
          .map((line) => line.split(' '))
          .map(([sha, type]) => [sha ?? '', type ?? ''] as const),
      );
      for (const [sha, where] of shas)
        if (types.get(sha) !== 'commit')
          fail(
            'checkpoints-exist',
            sha,
            `checkpoint ${sha} (${where} in state.json) is ${types.get(sha) ?? 'missing'} in the shadow repository, not a commit`,
          );
    }
  } else if (shas.size > 0) {
    fail(
      'checkpoints-exist',
      'no-repository',
      `state.json names ${shas.size} checkpoint(s) but the shadow repository does not exist`,
    );
  }

  // no-acknowledged-completion-lost: each completion printed or journaled has a `completed`
  // record of that codon in that run.
  const all = new Map<string, AcknowledgedCompletion>();
  for (const completion of [...acknowledged, ...completionsIn(journal.events, 'journal')])
    if (!all.has(completion.eventId)) all.set(completion.eventId, completion);
  for (const completion of all.values()) {
    const run = state?.runs.find((candidate) => candidate.runId === completion.runId);
    const records = run?.codons.filter((codon) => codon.codonId === completion.codonId) ?? [];
    if (records.some((codon) => codon.status === 'completed')) continue;
    const found = records
      .map((codon) => {
        const reason = (codon as { failureReason?: string }).failureReason;
        return reason ? `${codon.status} ("${reason}")` : codon.status;
      })
      .join(', ');
    fail(
      'no-acknowledged-completion-lost',
      completion.eventId,
      `codon.completed of ${completion.codonId} (event ${completion.eventId}, run ` +
        `${completion.runId}, seen on ${completion.source}) is not completed in state.json: ` +
        (run ? `the run has it as ${found || 'no record'}` : 'state.json has no such run'),
    );
  }

  return { checked: KILL_INVARIANTS.length, failures, ...(state ? { state } : {}), journal };
}

/** Every file under the execution's agentRoot (the data link excluded), with its content. */
export function agentFiles(executionDir: string): Map<string, string> {
  const root = join(executionDir, 'agentRoot');
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(root, path);
      if (name === 'read_only_data_source') continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() || statSync(path, { throwIfNoEntry: false })?.isFile())
        files.set(name, readFileSync(path, 'utf8'));
      else files.set(name, `<${entry.isSymbolicLink() ? 'symlink' : 'special file'}>`);
    }
  };
  if (existsSync(root)) walk(root);
  return files;
}

/** files-match-clean-run: the same file list and contents as the clean run. */
export function compareFiles(
  clean: ReadonlyMap<string, string>,
  actual: ReadonlyMap<string, string>,
): InvariantFailure[] {
  const failures: InvariantFailure[] = [];
  const names = [...new Set([...clean.keys(), ...actual.keys()])].sort();
  for (const name of names) {
    const expected = clean.get(name);
    const got = actual.get(name);
    if (expected === got) continue;
    const what =
      expected === undefined
        ? 'exists only after the kills'
        : got === undefined
          ? 'is missing after the kills'
          : `differs: clean ${JSON.stringify(expected.slice(0, 300))}, after the kills ${JSON.stringify(got.slice(0, 300))}`;
    failures.push({ invariant: 'files-match-clean-run', key: name, message: `${name} ${what}` });
  }
  return failures;
}
