import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnChild } from '@hankweave/durable-io/testing';
import { FakeHarness } from '@hankweave/harness/testing';
import { archiveManifestSchema } from '@hankweave/types';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';

const CHILD = fileURLToPath(new URL('./archive-crash-child.mjs', import.meta.url));
const COUNT = 1500;
const expected = (index: number) => `content of draft ${index}\n`.repeat(index % 7);
const pathOf = (index: number) => `drafts/d${index % 10}/f${index}.txt`;

// A real SIGKILL in the middle of an archive of many files: the manifest was written before the
// first move, so every file is at its source or at the archive path an entry names, and a rollback
// in the next process brings every one back byte-identical.
describe('archiveOnSuccess killed with SIGKILL mid-archive', () => {
  const root = mkdtempSync(join(tmpdir(), 'archive-kill-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loses nothing, records everything, and a rollback restores every file', async () => {
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'data', 'x.txt'), 'x');
    const executionDir = join(root, 'exec');
    const child = spawnChild(CHILD, [root, executionDir, String(COUNT)]);
    const line = await child.waitForLine(/ARCHIVING|FINISHED/);
    const exit = await child.kill();
    expect(line).toBe('ARCHIVING');
    expect(exit.signal).toBe('SIGKILL');

    const manifestPath = join(executionDir, '.hankweave/archive-manifest.json');
    const manifest = archiveManifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    const entries = new Map(manifest.entries.map((entry) => [entry.sourcePath, entry]));
    let moved = 0;
    for (let index = 0; index < COUNT; index++) {
      const entry = entries.get(pathOf(index));
      expect(entry, pathOf(index)).toBeDefined();
      let content: string | undefined;
      for (const where of [join('agentRoot', pathOf(index)), entry?.archivePath ?? '']) {
        try {
          content = readFileSync(join(executionDir, where), 'utf8');
          if (where.startsWith('rigArchive')) moved++;
        } catch {}
      }
      expect(content, pathOf(index)).toBe(expected(index));
    }
    // Killed mid-way: some moved, some not (a machine fast enough to finish would print FINISHED).
    expect(moved).toBeGreaterThan(0);

    const state = JSON.parse(readFileSync(join(executionDir, '.hankweave/state.json'), 'utf8'));
    const runtime = createRuntime({
      // The hank the child ran (one file for both sides).
      hank: JSON.parse(readFileSync(new URL('./archive-crash-hank.json', import.meta.url), 'utf8')),
      hankDir: root,
      dataPath: join(root, 'data'),
      executionDir,
      harness: new FakeHarness(),
      autostart: false,
    });
    await runtime.start();
    try {
      await runtime.command({
        type: 'rollback.toCheckpoint',
        data: { checkpointSha: state.initialCheckpoint },
      });
    } finally {
      await runtime.close();
    }
    // Every file is back from the archive, byte-identical; none existed at the initial checkpoint,
    // so each then went on to the rollback's debris (issue 38), exactly once.
    const debrisRoot = join(executionDir, '.hankweave/debris');
    const debrisDirs = readdirSync(debrisRoot).map((name) => join(debrisRoot, name, 'agentRoot'));
    for (let index = 0; index < COUNT; index++) {
      const places = debrisDirs.filter((dir) => existsSync(join(dir, pathOf(index))));
      expect(places, pathOf(index)).toHaveLength(1);
      expect(readFileSync(join(places[0] as string, pathOf(index)), 'utf8')).toBe(expected(index));
      expect(existsSync(join(executionDir, 'agentRoot', pathOf(index)))).toBe(false);
    }
    const after = archiveManifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    expect(after.entries).toEqual([]);
  }, 120_000);
});
