import {
  watch as fsWatch,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeScanner } from './change-scanner.js';
import { snapshot } from './snapshot.js';
import { countInotifyWatches } from './testing/inotify-watches.js';
import { TreeWatcher } from './tree-watcher.js';

afterEach(cleanupTempDirs);

// A loaded CI machine may take longer than the default 2 s to deliver an event; a late marker
// makes a scan walk, which these tests would see as a failure.
const SETTLE = { settleTimeoutMs: 15_000 };

async function setup() {
  const { path: work } = await makeTempDir('hankweave-watch-');
  const root = join(work, 'root');
  const outside = join(work, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim.txt'), 'precious');
  writeFileSync(join(root, 'a.ts'), 'a');
  const watcher = await TreeWatcher.start(root, SETTLE);
  const scanner = new ChangeScanner(root, { watcher });
  return { root, outside, watcher, scanner };
}

const created = (result: { changes: { created: { path: string }[] } }) =>
  result.changes.created.map((change) => change.path);

describe('TreeWatcher', () => {
  it('finds the files of a directory created and filled before its watch existed', async () => {
    const { root, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(root, 'n/m/o'), { recursive: true });
      writeFileSync(join(root, 'n/m/o/deep.ts'), 'deep');
      const first = await scanner.scanWatched(['**']);
      expect(first.by).toBe('events');
      expect(created(first)).toEqual(['n/m/o/deep.ts']);
      // Later writes deep inside it arrive through the watches added for the new directories.
      writeFileSync(join(root, 'n/m/o/later.ts'), 'later');
      expect(created(await scanner.scanWatched(['**']))).toEqual(['n/m/o/later.ts']);
    } finally {
      await watcher.close();
    }
  });

  it('watches inside a tree moved in from outside', async () => {
    const { root, outside, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(outside, 'tree/sub/subsub'), { recursive: true });
      writeFileSync(join(outside, 'tree/sub/subsub/in.ts'), 'in');
      renameSync(join(outside, 'tree'), join(root, 'tree'));
      expect(created(await scanner.scanWatched(['**']))).toEqual(['tree/sub/subsub/in.ts']);
      writeFileSync(join(root, 'tree/sub/subsub/more.ts'), 'more');
      expect(created(await scanner.scanWatched(['**']))).toEqual(['tree/sub/subsub/more.ts']);
    } finally {
      await watcher.close();
    }
  });

  it('settles at once when a watched directory is moved out and a new one takes its name', async () => {
    const { root, outside, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(root, 'b/d'), { recursive: true });
      writeFileSync(join(root, 'b/d/x.ts'), 'x');
      expect(created(await scanner.scanWatched(['**']))).toEqual(['b/d/x.ts']);
      // `b`'s watches follow the moved directory outside: the new `b` must be watched anew, and
      // writes into the old one, outside, must not be taken for writes here.
      renameSync(join(root, 'b'), join(outside, 'b'));
      mkdirSync(join(root, 'b'));
      writeFileSync(join(root, 'b/keep.log'), 'k');
      const started = Date.now();
      const result = await scanner.scanWatched(['**']);
      expect(Date.now() - started).toBeLessThan(SETTLE.settleTimeoutMs / 3);
      expect(result.by).toBe('events');
      expect(created(result)).toEqual(['b/keep.log']);
      expect(result.changes.deleted.map((change) => change.path)).toEqual(['b/d/x.ts']);
      // Writes into the new `b` and into the old one, now outside, are told apart.
      writeFileSync(join(root, 'b/new.ts'), 'n');
      writeFileSync(join(outside, 'b/d/outside.ts'), 'o');
      const next = await scanner.scanWatched(['**']);
      expect(next.by).toBe('events');
      expect(created(next)).toEqual(['b/new.ts']);
    } finally {
      await watcher.close();
    }
  });

  it('settles at once when a directory is replaced and its watched subdirectory moved into the new one', async () => {
    const { root, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(root, 'b'));
      await scanner.scanWatched(['**']); // `b` is watched
      mkdirSync(join(root, 'b/d'));
      await scanner.scanWatched(['**']); // and so is `b/d`
      // `b/d` keeps its inode in the new `b`: it must be watched under its new path.
      renameSync(join(root, 'b'), join(root, 'old'));
      mkdirSync(join(root, 'b'));
      renameSync(join(root, 'old/d'), join(root, 'b/d'));
      writeFileSync(join(root, 'b/d/x.ts'), 'x');
      const started = Date.now();
      const result = await scanner.scanWatched(['**']);
      expect(Date.now() - started).toBeLessThan(SETTLE.settleTimeoutMs / 3);
      expect(result.by).toBe('events');
      expect(created(result)).toEqual(['b/d/x.ts']);
      writeFileSync(join(root, 'b/d/y.ts'), 'y');
      expect(created(await scanner.scanWatched(['**']))).toEqual(['b/d/y.ts']);
    } finally {
      await watcher.close();
    }
  });

  // A directory moved out of the root and deleted there: the kernel drops its watches. A new
  // watcher of the same root, and a new directory in the old place, are watched from scratch.
  it('watches a root again after a subtree it watched was moved out and deleted', async () => {
    const { root, outside, watcher: first } = await setup();
    await first.close();
    mkdirSync(join(root, 'm/sub/subsub'), { recursive: true });
    mkdirSync(join(root, 'k/kk'), { recursive: true });
    const watcher = await TreeWatcher.start(root, SETTLE);
    const scanner = new ChangeScanner(root, { watcher });
    await scanner.scanWatched(['**']);
    renameSync(join(root, 'm'), join(outside, 'm'));
    await scanner.scanWatched(['**']);
    rmSync(join(outside, 'm'), { recursive: true });
    await watcher.close();
    mkdirSync(join(root, 'm/deep'), { recursive: true });
    const again = await TreeWatcher.start(root, SETTLE);
    try {
      const next = new ChangeScanner(root, { baseline: scanner.current, watcher: again });
      await next.scanWatched(['**']);
      writeFileSync(join(root, 'm/deep/f.ts'), 'f');
      const result = await next.scanWatched(['**']);
      expect(result.by).toBe('events');
      expect(created(result)).toEqual(['m/deep/f.ts']);
    } finally {
      await again.close();
    }
  });

  // `rm -r n && mkdir n` often gives the new `n` the inode number of the old one: the path and
  // the inode agree with what was watched, but the watch died with the old directory.
  it('watches a directory deleted and made again under the same name (an inode number reused)', async () => {
    const { root, outside, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(root, 'n/m/sub'), { recursive: true });
      await scanner.scanWatched(['**']);
      renameSync(join(root, 'n/m'), join(outside, 'm'));
      await scanner.scanWatched(['**']);
      rmSync(join(outside, 'm'), { recursive: true });
      for (let round = 0; round < 20; round++) {
        rmSync(join(root, 'n'), { recursive: true });
        mkdirSync(join(root, 'n/deep'), { recursive: true });
        await scanner.scanWatched(['**']);
        writeFileSync(join(root, `n/deep/f${round}.ts`), 'f');
        const result = await scanner.scanWatched(['**']);
        expect(result.by).toBe('events');
        expect(created(result)).toEqual([`n/deep/f${round}.ts`]);
      }
    } finally {
      await watcher.close();
    }
  });

  // What a watcher that merges a path's events in batches (@parcel/watcher, used before) lost:
  // the overwritten file's "create" and its "delete" merged into nothing, so a checkpoint kept
  // a file that was gone. Each sequence runs in one go, well inside any batching window.
  it('reports a file deleted right after something was renamed over it', async () => {
    const { root, watcher, scanner } = await setup();
    const deleted = (result: { changes: { deleted: { path: string }[] } }) =>
      result.changes.deleted.map((change) => change.path);
    try {
      mkdirSync(join(root, 'b/d'), { recursive: true });
      for (const name of ['keep.log', 'saved.ts', 'other.ts']) {
        writeFileSync(join(root, 'b/d', name), name);
      }
      writeFileSync(join(root, 'x.ts'), 'x');
      await scanner.scanWatched(['**']);
      // Renamed over, then moved back where it came from.
      renameSync(join(root, 'x.ts'), join(root, 'b/d/keep.log'));
      renameSync(join(root, 'b/d/keep.log'), join(root, 'x.ts'));
      // An editor's atomic save, then a delete.
      writeFileSync(join(root, 'b/d/saved.ts.tmp~'), 'new');
      renameSync(join(root, 'b/d/saved.ts.tmp~'), join(root, 'b/d/saved.ts'));
      rmSync(join(root, 'b/d/saved.ts'));
      // Renamed over, then unlinked.
      writeFileSync(join(root, 'tmp.ts'), 't');
      renameSync(join(root, 'tmp.ts'), join(root, 'b/d/other.ts'));
      rmSync(join(root, 'b/d/other.ts'));
      const result = await scanner.scanWatched(['**']);
      expect(result.by).toBe('events');
      expect(deleted(result)).toEqual(['b/d/keep.log', 'b/d/other.ts', 'b/d/saved.ts']);
      expect([...result.snapshot.keys()].sort()).toEqual(['a.ts', 'x.ts']);
    } finally {
      await watcher.close();
    }
  });

  it('turns stale when the root is deleted and made again, even with its old inode number', async () => {
    for (const readOnly of [false, true]) {
      const { path: work } = await makeTempDir('hankweave-watch-');
      const root = join(work, 'root');
      mkdirSync(root);
      const watcher = await TreeWatcher.start(root, { ...SETTLE, readOnly });
      try {
        await watcher.settle();
        watcher.take();
        rmSync(root, { recursive: true });
        mkdirSync(root);
        writeFileSync(join(root, 'lost.ts'), 'no watch saw this');
        await watcher.settle();
        expect(watcher.take()).toMatchObject({
          stale: true,
          reason: expect.stringMatching(/root was (deleted|replaced)/),
        });
      } finally {
        await watcher.close();
      }
    }
  });

  // inotify queues an event in the system call that makes the change: a read-only watcher,
  // which writes no marker, still has every change made before its settle in the next take.
  it('read-only: a take after settle holds every change made before it', async () => {
    const { path: work } = await makeTempDir('hankweave-watch-');
    mkdirSync(join(work, 'deep/er'), { recursive: true });
    const watcher = await TreeWatcher.start(work, { readOnly: true });
    try {
      await watcher.settle();
      watcher.take();
      for (let round = 0; round < 300; round++) {
        const path = round % 2 === 0 ? `deep/er/f${round}.ts` : `g${round}.ts`;
        writeFileSync(join(work, path), 'x');
        await watcher.settle();
        expect(watcher.take()).toEqual({ dirty: [path], stale: false });
      }
    } finally {
      await watcher.close();
    }
  });

  it('writes its markers through no link: a planted link or FIFO name, a directory swapped for a link', async () => {
    const { root, outside, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(root, 'new'));
      await scanner.scanWatched(['**']); // `new` is watched
      // Anything created outside, even for a moment, is seen here.
      const touchedOutside: string[] = [];
      const spy = fsWatch(outside, (_type, name) => touchedOutside.push(String(name)));
      // The agent swaps `new` for a link to a directory outside the root.
      renameSync(join(root, 'new'), join(root, 'old'));
      symlinkSync(outside, join(root, 'new'));
      writeFileSync(join(root, 'b.ts'), 'b');
      const result = await scanner.scanWatched(['**']);
      expect(created(result)).toEqual(['b.ts', 'new']);
      await new Promise((done) => setTimeout(done, 200));
      spy.close();
      expect(touchedOutside).toEqual([]);
      expect(readdirSync(outside)).toEqual(['victim.txt']);
      expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('precious');
      // Markers are named at random and created exclusively: links planted under guessed names
      // are never written through.
      for (let i = 0; i < 20; i++) {
        symlinkSync(join(outside, 'victim.txt'), join(root, `.hankweave-settle-${i}`));
      }
      writeFileSync(join(root, 'c.ts'), 'c');
      expect(created(await scanner.scanWatched(['**']))).toEqual(['c.ts']);
      expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('precious');
      // No marker is left behind, and none is ever listed.
      expect(
        readdirSync(root).filter((name) => name.startsWith('.hankweave-settle-')),
      ).toHaveLength(20);
      expect([...snapshot(root, ['**']).keys()].sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'new']);
    } finally {
      await watcher.close();
    }
  });

  it('removes every watch it added when it closes, after directories came and went', async () => {
    const before = countInotifyWatches();
    const { root, outside, watcher, scanner } = await setup();
    await scanner.scanWatched(['**']);
    mkdirSync(join(root, 'n/m/o'), { recursive: true });
    mkdirSync(join(root, 'gone/sub'), { recursive: true });
    await scanner.scanWatched(['**']);
    renameSync(join(root, 'gone'), join(outside, 'gone'));
    rmSync(join(root, 'n/m'), { recursive: true });
    await scanner.scanWatched(['**']);
    // The root and `n`: the directories that are there now.
    expect(countInotifyWatches() - before).toBe(2);
    await watcher.close();
    expect(countInotifyWatches()).toBe(before);
  });

  // Changes made while the event loop is busy wait in the kernel's queue; past
  // `max_queued_events` the kernel drops the rest, and libuv says nothing. Two files written
  // in turn (the kernel merges only repeats of the last event) fill it, then a delete is lost.
  it('walks when the kernel queue may have overflowed, though libuv does not say so', async () => {
    const limit = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    const { root, watcher, scanner } = await setup();
    try {
      writeFileSync(join(root, 'x.ts'), 'x');
      await scanner.scanWatched(['**']);
      for (let i = 0; i < limit + 2000; i++) writeFileSync(join(root, `f${i % 2}.ts`), `${i % 7}`);
      rmSync(join(root, 'x.ts'));
      // The loop reads the full queue before the scan starts, as after a busy spell.
      for (let turn = 0; turn < 3; turn++) await new Promise((done) => setImmediate(done));
      const result = await scanner.scanWatched(['**']);
      expect(result.by).toBe('walk');
      expect(result.walkReason).toMatch(/event queue may have overflowed/);
      expect(result.changes.deleted.map((change) => change.path)).toEqual(['x.ts']);
      // Quiet again: the next scan is answered by events.
      writeFileSync(join(root, 'y.ts'), 'y');
      const next = await scanner.scanWatched(['**']);
      expect(next.by).toBe('events');
      expect(created(next)).toEqual(['y.ts']);
    } finally {
      await watcher.close();
    }
  });

  it('walks after a burst larger than maxDirty, and says why', async () => {
    const { path: work } = await makeTempDir('hankweave-watch-');
    const watcher = await TreeWatcher.start(work, { ...SETTLE, maxDirty: 5 });
    const scanner = new ChangeScanner(work, { watcher });
    try {
      await scanner.scanWatched(['**']);
      for (let i = 0; i < 10; i++) writeFileSync(join(work, `f${i}.ts`), String(i));
      const result = await scanner.scanWatched(['**']);
      expect(result.by).toBe('walk');
      expect(result.walkReason).toMatch(/more than 5 paths/);
      expect(created(result)).toHaveLength(10);
      writeFileSync(join(work, 'one.ts'), '1');
      expect((await scanner.scanWatched(['**'])).by).toBe('events');
    } finally {
      await watcher.close();
    }
  });

  it('walks once closed, and after reset()', async () => {
    const { root, watcher, scanner } = await setup();
    await scanner.scanWatched(['**']);
    scanner.reset(scanner.current);
    expect((await scanner.scanWatched(['**'])).walkReason).toMatch(/first scan/);
    await watcher.close();
    writeFileSync(join(root, 'late.ts'), 'late');
    const closed = await scanner.scanWatched(['**']);
    expect(closed).toMatchObject({ by: 'walk', walkReason: 'the watcher is closed' });
    expect(created(closed)).toEqual(['late.ts']);
  });

  it('takes a watcher started later, and refuses one of another root', async () => {
    const { root, outside, watcher } = await setup();
    const scanner = new ChangeScanner(root);
    const other = await TreeWatcher.start(outside, SETTLE);
    try {
      expect(scanner.scan(['**']).by).toBe('walk');
      expect(() => scanner.attachWatcher(other)).toThrow(
        expect.objectContaining({ code: 'FILES_INVALID_OPTION' }),
      );
      scanner.attachWatcher(watcher);
      writeFileSync(join(root, 'b.ts'), 'b');
      const baseline = await scanner.scanWatched(['**']);
      expect(baseline.by).toBe('walk');
      expect(created(baseline)).toEqual(['b.ts']);
      writeFileSync(join(root, 'c.ts'), 'c');
      const next = await scanner.scanWatched(['**']);
      expect(next.by).toBe('events');
      expect(created(next)).toEqual(['c.ts']);
    } finally {
      await other.close();
      await watcher.close();
    }
  });

  it('watches a root below a .git directory, and never inside its own .git', async () => {
    const { path: work } = await makeTempDir('hankweave-watch-');
    const root = join(work, '.git', 'inner');
    mkdirSync(join(root, '.git'), { recursive: true });
    const watcher = await TreeWatcher.start(root, SETTLE);
    const scanner = new ChangeScanner(root, { watcher });
    try {
      await scanner.scanWatched(['**']);
      writeFileSync(join(root, 'a.ts'), 'a');
      writeFileSync(join(root, '.git', 'HEAD'), 'ref: x');
      await watcher.settle();
      expect(watcher.take().dirty).toEqual(['a.ts']);
      writeFileSync(join(root, 'b.ts'), 'b');
      const result = await scanner.scanWatched(['**']);
      expect(result.by).toBe('events');
      expect(created(result)).toEqual(['b.ts']);
    } finally {
      await watcher.close();
    }
  });

  it('read-only: writes nothing in the tree, and reports every name (.git, markers) as a change', async () => {
    const { path: work } = await makeTempDir('hankweave-watch-');
    const root = join(work, 'data');
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, 'read_only_data_source'));
    writeFileSync(join(root, 'cities.csv'), 'Lisbon\n');
    // Every entry the tree ever holds, seen by an independent watcher of the root: a marker
    // written and removed at once would not show in a listing afterwards.
    const seen = new Set<string>();
    const spy = fsWatch(root, (_event, name) => {
      if (name) seen.add(String(name));
    });
    const watcher = await TreeWatcher.start(root, { readOnly: true });
    try {
      watcher.take();
      await watcher.settle();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...seen]).toEqual([]);
      writeFileSync(join(root, '.git', 'HEAD'), 'ref: x');
      writeFileSync(join(root, 'read_only_data_source', 'x'), 'x');
      writeFileSync(join(root, '.hankweave-settle-0'), 'looks like a marker');
      const dirty = new Set<string>();
      const deadline = Date.now() + 10_000;
      while (dirty.size < 3 && Date.now() < deadline) {
        for (const path of watcher.take().dirty) dirty.add(path);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect([...dirty].sort()).toEqual([
        '.git/HEAD',
        '.hankweave-settle-0',
        'read_only_data_source/x',
      ]);
      seen.clear();
    } finally {
      await watcher.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      spy.close();
    }
    // Closing settles nothing into the tree either.
    expect([...seen]).toEqual([]);
    expect(readdirSync(root).sort()).toEqual([
      '.git',
      '.hankweave-settle-0',
      'cities.csv',
      'read_only_data_source',
    ]);
  });
});
