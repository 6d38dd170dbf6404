import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, it } from 'vitest';
import { tempDir } from '../test/helpers.js';
import { createFileJournal } from './create-journal.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const child = fileURLToPath(new URL('../test/crash-child.mjs', import.meta.url));
const LANES = 3;
const KILLS_PER_LANE = 36;
/** A safety bound on a very slow machine; the kill count is asserted after it. */
const DEADLINE_MS = 90_000;

/** Starts the appending child; resolves with the ids it acknowledged once SIGKILL ended it. */
function runAndKill(dir: string, mode: string, runId: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const process_: ChildProcess = spawn(process.execPath, [child, dir, mode, runId], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    process_.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    process_.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    const kill = () => process_.kill('SIGKILL');
    // Most kills land while appending (after "ready"); some during start-up, open and repair.
    if (Math.random() < 0.75) {
      const onData = () => {
        if (!output.includes('ready\n')) return;
        process_.stdout?.off('data', onData);
        setTimeout(kill, Math.random() * 40);
      };
      process_.stdout?.on('data', onData);
    } else {
      setTimeout(kill, Math.random() * 150);
    }
    process_.on('error', reject);
    process_.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') {
        reject(new Error(`child ended with ${code ?? signal}: ${errors}`));
        return;
      }
      // Only complete lines: the child may have died in the middle of printing an id.
      const lines = output.slice(0, output.lastIndexOf('\n') + 1).split('\n');
      resolve(lines.filter((line) => line.startsWith('evt_')));
    });
  });
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
          const { dir, cleanup } = await tempDir();
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
      expect(total('kills')).toBeGreaterThanOrEqual(100);
      expect(total('acknowledged')).toBeGreaterThan(0);
    },
  );
});
