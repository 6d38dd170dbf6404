import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { atDepth, makeTempDir, spawnChild } from '@hankweave/durable-io/testing';
import { beforeAll, describe, it } from 'vitest';
import { createFileJournal } from './create-journal.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const child = fileURLToPath(new URL('../test/crash-child.mjs', import.meta.url));
const LANES = 3;
/** Per lane: 12 in CI (36 kills a mode), 36 in `pnpm test:long` (108 a mode). */
const KILLS_PER_LANE = atDepth({ short: 12, long: 36 });
/** A safety bound on a very slow machine; the kill count is asserted after it. */
const DEADLINE_MS = 90_000;

/** Starts the appending child; resolves with the ids it acknowledged once SIGKILL ended it. */
async function runAndKill(dir: string, mode: string, runId: string): Promise<string[]> {
  const running = spawnChild(child, [dir, mode, runId]);
  // Kills land during start-up, open and repair; right after "ready", while the first appends are
  // in flight; and after the first acknowledgement. The last kind exists so that acknowledged
  // events are always put to the test: on a loaded machine one fsync can outlast the whole
  // 40 ms window after "ready", and then no run would acknowledge anything.
  const dice = Math.random();
  const exit =
    dice < 0.25
      ? await running.kill(Math.random() * 150)
      : await running
          .waitForLine((line) => (dice < 0.6 ? line === 'ready' : line.startsWith('evt_')))
          .then(() => running.kill(Math.random() * 40));
  if (exit.signal !== 'SIGKILL') {
    throw new Error(`child ended with ${exit.code ?? exit.signal}: ${exit.stderr}`);
  }
  // Only complete lines count (spawnChild drops a line the child died in the middle of).
  return exit.lines.filter((line) => line.startsWith('evt_'));
}

describe('journal under SIGKILL (real processes)', () => {
  beforeAll(() => {
    // The child imports the built package; build it when this runs before `pnpm build`.
    if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
      execFileSync('pnpm', ['exec', 'tsup'], { cwd: packageDir, stdio: 'ignore' });
    }
  }, 120_000);

  // Each mode runs several lanes (own directory, own child) side by side, and both modes run at
  // once: a kill costs a Node start-up, so this keeps 200+ kills within about a minute.
  it.concurrent.for(['fsync', 'batched'])(
    'keeps every acknowledged event exactly once, in order, after each kill (%s)',
    { timeout: 120_000 },
    async (mode, { expect }) => {
      const started = Date.now();
      const lanes = await Promise.all(
        Array.from({ length: LANES }, async (_, lane) => {
          const { path: dir, cleanup } = await makeTempDir('journal-test-');
          const seen = new Set<string>();
          let cursor: string | undefined;
          let kills = 0;
          let acknowledged = 0;
          try {
            while (kills < KILLS_PER_LANE && Date.now() - started < DEADLINE_MS) {
              const runId = `l${lane}r${kills}`;
              const acked = await runAndKill(dir, mode, runId);
              kills += 1;
              acknowledged += acked.length;
              // Opening repairs a torn tail; then read only what this run added (after `cursor`).
              const journal = await createFileJournal({ hankweaveDir: dir, durability: 'none' });
              const added: string[] = [];
              for (;;) {
                const page = await journal.getEventsAfter(cursor, 5000);
                added.push(...page.events.map((event) => event.id));
                cursor = page.nextCursor;
                if (!page.hasMore) break;
              }
              for (const id of added) {
                expect(seen.has(id), `duplicate ${id}`).toBe(false);
                seen.add(id);
              }
              // Acknowledged ids appear in the same order; unacknowledged ones may follow them.
              expect(added.slice(0, acked.length)).toEqual(acked);
              expect(added.every((id) => id.startsWith(`evt_${runId}_`))).toBe(true);
              // No torn or corrupt line anywhere: the repair only touches the unfinished tail.
              expect((await journal.stats()).corruptLines).toBe(0);
              await journal.close();
            }
          } finally {
            await cleanup();
          }
          return { kills, acknowledged, stored: seen.size };
        }),
      );
      const total = (key: 'kills' | 'acknowledged' | 'stored') =>
        lanes.reduce((sum, lane) => sum + lane[key], 0);
      process.stdout.write(
        `[crash ${mode}] ${total('kills')} kills, ${total('acknowledged')} acknowledged, ` +
          `${total('stored')} stored, ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
      );
      // The deadline may cut a lane short on a slow machine: at least 100 kills in 108 must land
      // (the bound this test had at its long size, kept in proportion at the short one).
      expect(total('kills')).toBeGreaterThanOrEqual(
        Math.ceil((LANES * KILLS_PER_LANE * 100) / 108),
      );
      expect(total('acknowledged')).toBeGreaterThan(0);
    },
  );
});
