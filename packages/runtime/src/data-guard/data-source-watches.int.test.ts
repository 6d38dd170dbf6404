import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../../test/recording-logger.js';
import { DEFAULT_FILE_WATCH } from '../codon/agent-root-watch.js';
import { DataSourceWatches } from './data-source-watches.js';

afterEach(cleanupTempDirs);

async function data(files: number) {
  const { path } = await makeTempDir('hankweave-data-watch-');
  const root = join(path, 'data');
  mkdirSync(root);
  for (let i = 0; i < files; i++) writeFileSync(join(root, `f${i}.csv`), String(i));
  return root;
}

/** Polls `generation` until it differs from `from` (events arrive on their own thread). */
async function nextGeneration(watches: DataSourceWatches, root: string, from: number | undefined) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const now = watches.generation(root);
    if (now !== from || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('DataSourceWatches', () => {
  it('watches a data root once it has minFiles entries, and counts the changes its events report', async () => {
    const root = await data(3);
    const { lines, log } = recordingLogger();
    const watches = new DataSourceWatches({ ...DEFAULT_FILE_WATCH, minFiles: 4 }, log);
    try {
      watches.consider(root, 3);
      await watches.started();
      expect(watches.generation(root)).toBeUndefined();
      watches.consider(root, 4);
      await watches.started();
      const first = watches.generation(root);
      expect(first).toBe(0);
      // Nothing changed: the same generation, again and again.
      expect(watches.generation(root)).toBe(first);
      writeFileSync(join(root, 'f1.csv'), 'changed');
      expect(await nextGeneration(watches, root, first)).toBe(1);
      mkdirSync(join(root, 'new'));
      expect(await nextGeneration(watches, root, 1)).toBe(2);
      // A write in a directory created after the watch began is seen too.
      writeFileSync(join(root, 'new', 'deep.csv'), 'x');
      expect(await nextGeneration(watches, root, 2)).toBe(3);
      expect(lines.filter((line) => line.startsWith('INFO'))).toEqual([
        "INFO Watching the data source's file events: 4 entries, at least 4 (fileWatch.minFiles); the check after each tool call walks it only when they report a change",
      ]);
      // The user's data is never written: no marker, nothing left behind.
      expect(readdirSync(root).sort()).toEqual(['f0.csv', 'f1.csv', 'f2.csv', 'new']);
    } finally {
      await watches.close();
    }
    expect(watches.generation(root)).toBeUndefined();
  });

  // The check after a tool call settles first: a change the agent made just before its tool
  // call ended is counted at once, not at a later check.
  it('counts every change made before a settle, without waiting for events to come in', async () => {
    const root = await data(4);
    const watches = new DataSourceWatches(
      { ...DEFAULT_FILE_WATCH, minFiles: 4 },
      recordingLogger().log,
    );
    try {
      watches.consider(root, 4);
      await watches.started();
      let generation = watches.generation(root);
      for (let round = 0; round < 100; round++) {
        writeFileSync(join(root, `f${round % 4}.csv`), `round ${round}`);
        await watches.settle(root);
        const now = watches.generation(root);
        expect(now).toBe((generation ?? 0) + 1);
        generation = now;
      }
    } finally {
      await watches.close();
    }
  });

  it('retires a root whose events may have been lost: a burst past the limit, the root moved away', async () => {
    const burst = await data(1);
    const moved = await data(1);
    const { lines, log } = recordingLogger();
    const watches = new DataSourceWatches({ ...DEFAULT_FILE_WATCH, minFiles: 0 }, log);
    try {
      watches.consider(burst, 1);
      watches.consider(moved, 1);
      await watches.started();
      expect(watches.generation(burst)).toBe(0);
      expect(watches.generation(moved)).toBe(0);
      // The root's directory moved away: its watch follows the old directory, not the path.
      renameSync(moved, `${moved}-gone`);
      mkdirSync(moved);
      expect(await nextGeneration(watches, moved, 0)).toBeUndefined();
      // A burst of events (more than half the kernel's queue in one read, more than the
      // watcher's 10,000 dirty paths): some events may be lost. Every watcher of the process
      // hears of a possible overflow, so this comes after the move.
      // (Events arrive over time: a look while they do sees fewer, so this looks after a pause,
      // and bursts again if the machine was too slow to deliver them all.)
      let generation = watches.generation(burst);
      for (let round = 0; round < 5 && generation !== undefined; round++) {
        for (let i = 0; i < 10_050; i++) writeFileSync(join(burst, `b${round}-${i}`), '');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        generation = watches.generation(burst);
      }
      expect(generation).toBeUndefined();
      // Retired for good: every later check walks, even once the events are quiet again.
      expect(watches.generation(burst)).toBeUndefined();
      expect(watches.generation(moved)).toBeUndefined();
      expect(lines.filter((line) => line.startsWith('WARN'))).toEqual([
        `WARN Stopped watching the data source at ${moved} (the root was deleted, moved or changed its mode); its checks walk it`,
        // Whichever tells first: the kernel's queue may have overflowed, or too many paths.
        expect.stringMatching(
          /^WARN Stopped watching the data source at .* \((\d+ file events came at once: the kernel's event queue may have overflowed|more than 10000 paths changed at once)\); its checks walk it$/,
        ),
      ]);
    } finally {
      await watches.close();
    }
  });

  it('watches nothing when fileWatch is off', async () => {
    const root = await data(5);
    const { lines, log } = recordingLogger();
    const watches = new DataSourceWatches(
      { ...DEFAULT_FILE_WATCH, enabled: false, minFiles: 0 },
      log,
    );
    watches.consider(root, 5);
    await watches.started();
    expect(watches.generation(root)).toBeUndefined();
    expect(lines).toEqual([]);
    await watches.close();
  });
});
