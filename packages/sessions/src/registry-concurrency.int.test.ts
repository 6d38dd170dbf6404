import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ChildUnderTest,
  makeTempDir,
  spawnChild,
  type TempDir,
} from '@hankweave/durable-io/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test/helpers/built-package.js';
import { readCompletions } from './completions.js';
import { SessionRegistry } from './registry.js';

// Twenty real processes released at one instant, each doing locked read-modify-writes of one
// registry: with the seed's `jq ... > tmp && mv` (no lock) most of these updates would be lost.
const CHILDREN = 20;
const CHILD = fileURLToPath(new URL('../test/children/registry-child.mjs', import.meta.url));

let dir: TempDir;
beforeAll(() => ensureBuilt(), 120_000);
beforeEach(async () => {
  dir = await makeTempDir('sessions-concurrency-');
});
afterEach(() => dir.cleanup());

/** Starts the children, waits until all are loaded, opens the barrier, waits for all to finish. */
async function runAtOnce(mode: 'registry' | 'completions'): Promise<void> {
  const barrier = join(dir.path, 'go');
  const children: ChildUnderTest[] = Array.from({ length: CHILDREN }, (_, index) =>
    spawnChild(CHILD, [dir.path, barrier, String(index), mode], { guardMs: 60_000 }),
  );
  await Promise.all(children.map((child) => child.waitForLine('ready')));
  await writeFile(barrier, '');
  const exits = await Promise.all(children.map((child) => child.exited));
  for (const exit of exits) {
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
    expect(exit.lines).toContain('done');
  }
}

describe('SessionRegistry across processes', () => {
  it('keeps every entry and every final status when 20 processes update at once', async () => {
    await runAtOnce('registry');
    const { sessions, problems } = await new SessionRegistry(dir.path).read();
    expect(problems).toEqual([]);
    expect(Object.keys(sessions)).toHaveLength(CHILDREN);
    for (let index = 0; index < CHILDREN; index++) {
      const entry = sessions[`loop-child-${index}`];
      const completed = index % 2 === 0;
      expect(entry).toMatchObject({
        status: completed ? 'completed' : 'killed',
        note: `final ${index}`,
      });
      expect(entry?.killed_at).toEqual(expect.any(String));
      if (completed) expect(entry?.completed_at).toEqual(expect.any(String));
    }
  }, 60_000);

  it('keeps every record when 20 processes append a completion at once', async () => {
    await runAtOnce('completions');
    const records = await readCompletions(dir.path);
    expect(
      records.map((record) => record.iterations).sort((a, b) => Number(a) - Number(b)),
    ).toEqual(Array.from({ length: CHILDREN }, (_, index) => index));
  }, 60_000);
});
