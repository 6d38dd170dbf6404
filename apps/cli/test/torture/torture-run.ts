import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@hankweave/durable-io/testing';
import { createSandbox } from '../cli-harness.js';
import { type KillTrigger, type PrintedEvent, runLifetime } from './cli-lifetime.js';
import {
  type AcknowledgedCompletion,
  agentFiles,
  checkAfterKill,
  compareFiles,
  completionsIn,
  type InvariantFailure,
  type InvariantName,
} from './invariants.js';

/** The moments a kill is aimed at. */
export const KILL_KINDS = [
  'completion',
  'rollback',
  'checkpoint',
  'transition',
  'tool',
  'random',
] as const;
/**
 * One kind of kill: right after an acknowledgement on stdout (a completion, a rollback, a
 * checkpoint, a state transition), right after an agent's tool result (the agent changed files
 * that no checkpoint holds yet), or at a random time.
 */
export type KillKind = (typeof KILL_KINDS)[number];

/** The hank every kill is injected into (a copy is run). */
export const FIXTURE_DIR = fileURLToPath(new URL('./fixture/', import.meta.url));

/** Options of {@link runTorture}. */
export interface TortureOptions {
  seed: number;
  /** How many kills of each kind to inject. */
  plan: Partial<Record<KillKind, number>>;
  /** After this many kills an episode runs to its end, and the next kill opens a new one. */
  maxKillsPerEpisode?: number;
  /** Progress lines (one per kill). */
  log?: (line: string) => void;
}

/** A failure, with where it was seen: replay with the seed. */
export interface TortureFailure extends InvariantFailure {
  seed: number;
  /** The kill after which it was seen (0: before any), and the episode. */
  kill: number;
  episode: number;
  /** The kind of the kill, or `end` for the checks when the hank has completed. */
  at: KillKind | 'end';
}

/** What a torture run did and found. */
export interface TortureSummary {
  seed: number;
  kills: Record<KillKind, number>;
  /** Lifetimes that ended on their own before their target appeared (the kill is retried). */
  missed: Record<KillKind, number>;
  episodes: number;
  lifetimes: number;
  /** Named invariants evaluated, after kills and at the ends of episodes. */
  invariantsChecked: number;
  /** Acknowledged completions verified against state.json (one per completion per kill). */
  completionsVerified: number;
  failures: TortureFailure[];
  cleanRunMs: number;
  durationMs: number;
}

const emptyCounts = (): Record<KillKind, number> =>
  Object.fromEntries(KILL_KINDS.map((kind) => [kind, 0])) as Record<KillKind, number>;

const isType =
  (type: string, predicate: (event: PrintedEvent) => boolean = () => true) =>
  (event: PrintedEvent): boolean =>
    event.type === type && predicate(event);

/**
 * The trigger of a kill of `kind`. `remaining` (codons not yet completed) bounds how far ahead a
 * line trigger may aim, so that it lands before the hank ends; `remainingMs` bounds a random kill
 * to the expected rest of the process's life.
 */
function triggerFor(
  kind: KillKind,
  random: () => number,
  remaining: number,
  remainingMs: number,
): KillTrigger {
  const pick = (max: number): number => 1 + Math.floor(random() * Math.max(1, max));
  switch (kind) {
    case 'completion':
      // Mostly the next completion, so that successive kills walk through every codon.
      return {
        kind: 'line',
        matches: isType('codon.completed', (event) => event.data.success === true),
        nth: remaining >= 2 && random() < 0.25 ? 2 : 1,
      };
    case 'rollback':
      return { kind: 'line', matches: isType('rollback.completed'), nth: 1 };
    case 'checkpoint':
      // A codon makes one or two checkpoints (rig setup, completion).
      return {
        kind: 'line',
        matches: isType('state.transition', (event) => {
          return event.data.transitionType === 'CheckpointCreated';
        }),
        nth: pick(Math.min(3, remaining)),
      };
    case 'transition':
      // A codon makes a dozen transitions or more; a restart makes a few before any codon.
      return { kind: 'line', matches: isType('state.transition'), nth: pick(3 + 10 * remaining) };
    case 'tool':
      // Every codon of the torture hank runs one or two tools.
      return { kind: 'line', matches: isType('tool.result'), nth: pick(remaining) };
    case 'random':
      return { kind: 'timer', afterMs: Math.floor(random() * remainingMs) };
  }
}

/**
 * The next kill to aim: the first planned kind that can happen in the coming process. A rollback
 * needs a crash before it; a completion or a checkpoint needs a codon still to run. Before the
 * first kill of an episode with only rollbacks left, an extra random kill makes the crash.
 */
function nextKind(
  queue: readonly KillKind[],
  killsInEpisode: number,
  remaining: number,
): KillKind | undefined {
  const feasible = queue.find((kind) =>
    kind === 'rollback'
      ? killsInEpisode > 0
      : kind === 'completion' || kind === 'checkpoint' || kind === 'tool'
        ? remaining > 0
        : true,
  );
  if (feasible) return feasible;
  return killsInEpisode === 0 && queue.includes('rollback') ? 'random' : undefined;
}

/** Shuffles in place with the seeded PRNG (Fisher–Yates). */
function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

/**
 * Runs the torture hank once cleanly, then in episodes: each a new execution whose CLI is killed
 * (whole process tree, SIGKILL) at the planned moments and restarted with the same execution
 * until the hank completes; every invariant is checked after every kill and at the end.
 */
export async function runTorture(options: TortureOptions): Promise<TortureSummary> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const maxKillsPerEpisode = options.maxKillsPerEpisode ?? 10;
  const sandbox = createSandbox();
  const hankDir = join(sandbox.root, 'torture-hank');
  cpSync(FIXTURE_DIR, hankDir, { recursive: true });
  const base = {
    hankDir,
    dataDir: join(hankDir, 'data'),
    script: join(hankDir, 'model-script.json'),
    env: sandbox.env,
  };
  const summary: TortureSummary = {
    seed: options.seed,
    kills: emptyCounts(),
    missed: emptyCounts(),
    episodes: 0,
    lifetimes: 0,
    invariantsChecked: 0,
    completionsVerified: 0,
    failures: [],
    cleanRunMs: 0,
    durationMs: 0,
  };
  try {
    const cleanDir = join(sandbox.root, 'clean');
    const clean = await runLifetime({ ...base, executionDir: cleanDir });
    summary.cleanRunMs = clean.durationMs;
    if (clean.code !== 0)
      throw new Error(`the clean run exited ${clean.code}:\n${clean.stderr.slice(-2000)}`);
    const cleanFiles = agentFiles(cleanDir);
    const codonCount = clean.events.filter(isType('codon.completed')).length;

    const queue = shuffle(
      KILL_KINDS.flatMap((kind) => Array<KillKind>(options.plan[kind] ?? 0).fill(kind)),
      random,
    );
    let killNumber = 0;
    while (queue.length > 0) {
      summary.episodes++;
      const episode = summary.episodes;
      const executionDir = join(sandbox.root, 'episodes', `episode-${episode}`);
      mkdirSync(join(sandbox.root, 'episodes'), { recursive: true });
      const acknowledged: AcknowledgedCompletion[] = [];
      const reported = new Set<string>();
      const record = (failures: InvariantFailure[], at: KillKind | 'end'): void => {
        for (const failure of failures) {
          const key = `${failure.invariant}:${failure.key}`;
          if (reported.has(key)) continue;
          reported.add(key);
          const located = { ...failure, seed: options.seed, kill: killNumber, episode, at };
          summary.failures.push(located);
          log(`  FAIL ${describeFailure(located)}`);
        }
      };
      let killsInEpisode = 0;
      let completedCodons = 0;
      let exitedWith: number | null = null;
      let failedExits = 0;
      for (;;) {
        const remaining = codonCount - completedCodons;
        const kind =
          killsInEpisode < maxKillsPerEpisode
            ? nextKind(queue, killsInEpisode, remaining)
            : undefined;
        const remainingMs = (summary.cleanRunMs * (remaining + 1)) / (codonCount + 1);
        const trigger = kind ? triggerFor(kind, random, remaining, remainingMs) : undefined;
        const life = await runLifetime({
          ...base,
          executionDir,
          ...(trigger ? { trigger } : {}),
        });
        summary.lifetimes++;
        acknowledged.push(...completionsIn(life.events, 'stdout'));
        if (life.killed && kind) {
          killNumber++;
          killsInEpisode++;
          summary.kills[kind]++;
          const planned = queue.indexOf(kind);
          if (planned !== -1) queue.splice(planned, 1);
          const check = await checkAfterKill(executionDir, acknowledged);
          summary.invariantsChecked += check.checked;
          summary.completionsVerified += new Set([
            ...acknowledged.map((completion) => completion.eventId),
            ...completionsIn(check.journal.events, 'journal').map((c) => c.eventId),
          ]).size;
          completedCodons = completedIn(check.state);
          log(
            `kill #${killNumber} ${kind.padEnd(10)} episode ${episode} after ` +
              `${life.triggerEvent ? describeEvent(life.triggerEvent) : `${life.durationMs} ms`}` +
              ` (${life.tree?.pids.length ?? 0} processes); ${completedCodons}/${codonCount} codons done` +
              (check.failures.length ? `; ${check.failures.length} invariant(s) broken` : ''),
          );
          record(check.failures, kind);
          continue;
        }
        if (kind) summary.missed[kind]++;
        exitedWith = life.code;
        if (life.code === 0) break;
        // A run that fails on its own is resumed (it rolls back and retries) a few times.
        failedExits++;
        log(`  episode ${episode}: hankweave exited ${life.code}: ${life.stderr.slice(-400)}`);
        if (failedExits >= 3) break;
      }
      // End of the episode: the hank completed on resume, with the clean run's files.
      const end = await checkAfterKill(executionDir, acknowledged);
      summary.invariantsChecked += end.checked + 2;
      const endFailures = [...end.failures];
      if (exitedWith !== 0)
        endFailures.push({
          invariant: 'hank-completes-on-resume',
          key: 'exit',
          message: `hankweave exited ${exitedWith} instead of completing the hank`,
        });
      endFailures.push(...compareFiles(cleanFiles, agentFiles(executionDir)));
      record(endFailures, 'end');
    }
  } finally {
    sandbox.cleanup();
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

/** How many codons have a completed record (an estimate of how far the hank is). */
const completedIn = (state: Awaited<ReturnType<typeof checkAfterKill>>['state']): number => {
  const done = new Set<string>();
  for (const run of state?.runs ?? [])
    for (const codon of run.codons) if (codon.status === 'completed') done.add(codon.codonId);
  return done.size;
};

const describeEvent = (event: PrintedEvent): string => {
  const detail = event.data.transitionType ?? event.data.codonId ?? '';
  return `${event.type}${detail ? ` ${String(detail)}` : ''}`;
};

/** One failure on one line, with the seed and the kill that exposed it. */
export function describeFailure(failure: TortureFailure): string {
  const where =
    failure.at === 'end'
      ? `end of episode ${failure.episode}`
      : `kill #${failure.kill} (${failure.at}, episode ${failure.episode})`;
  return `[seed ${failure.seed}, ${where}] ${failure.invariant}: ${failure.message}`;
}

/** The summary as printed: kills by kind, invariants checked, failures, time. */
export function formatSummary(summary: TortureSummary, replay: string): string {
  const total = KILL_KINDS.reduce((sum, kind) => sum + summary.kills[kind], 0);
  const byKind = KILL_KINDS.map((kind) => `${kind} ${summary.kills[kind]}`).join(', ');
  const missed = KILL_KINDS.filter((kind) => summary.missed[kind] > 0)
    .map((kind) => `${kind} ${summary.missed[kind]}`)
    .join(', ');
  const byInvariant = new Map<InvariantName, number>();
  for (const failure of summary.failures)
    byInvariant.set(failure.invariant, (byInvariant.get(failure.invariant) ?? 0) + 1);
  const lines = [
    `torture: seed ${summary.seed} (replay: ${replay})`,
    `kills       ${total}: ${byKind}${missed ? ` (targets missed, retried: ${missed})` : ''}`,
    `episodes    ${summary.episodes}, CLI processes ${summary.lifetimes}, clean run ${(summary.cleanRunMs / 1000).toFixed(1)} s`,
    `invariants  ${summary.invariantsChecked} checked; acknowledged completions verified ${summary.completionsVerified}`,
    `failures    ${summary.failures.length}${[...byInvariant].map(([name, count]) => `, ${name} ${count}`).join('')}`,
    `time        ${(summary.durationMs / 1000).toFixed(1)} s`,
    ...summary.failures.map((failure) => `  ${describeFailure(failure)}`),
  ];
  return lines.join('\n');
}

/** The seed and the kill plan from the environment: `TORTURE_SEED`, `TORTURE_KILLS`. */
export function tortureEnv(defaultKills: number): { seed: number; kills: number } {
  const seedText = process.env.TORTURE_SEED;
  const seed =
    seedText !== undefined && seedText !== ''
      ? Number(seedText)
      : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed) || seed < 0)
    throw new Error(`TORTURE_SEED must be a non-negative integer, not ${seedText}`);
  const killsText = process.env.TORTURE_KILLS;
  const kills = killsText !== undefined && killsText !== '' ? Number(killsText) : defaultKills;
  if (!Number.isInteger(kills) || kills < 1)
    throw new Error(`TORTURE_KILLS must be a positive integer, not ${killsText}`);
  return { seed, kills };
}

/**
 * The plan of `total` kills: half random, half targeted; of the targeted, half right after a
 * `codon.completed` (the acknowledgement issue 16 is about), the rest split between rollbacks,
 * checkpoints, state transitions and tool results.
 */
export function planOf(total: number): Record<KillKind, number> {
  const random = Math.floor(total / 2);
  const targeted = total - random;
  const completion = Math.ceil(targeted / 2);
  let others = targeted - completion;
  const share = (parts: number): number => {
    const count = Math.ceil(others / parts);
    others -= count;
    return count;
  };
  const rollback = share(4);
  const checkpoint = share(3);
  const transition = share(2);
  return { completion, rollback, checkpoint, transition, tool: others, random };
}
