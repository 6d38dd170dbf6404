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
      // Later writes deep inside it arrive through the new directory's own subscription.
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
      // `b` has a subscription of its own, which follows the moved directory outside. A marker
      // written into the new `b` never reaches it: the settle must not wait for that marker.
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
      await scanner.scanWatched(['**']); // `b` gets a subscription
      mkdirSync(join(root, 'b/d'));
      await scanner.scanWatched(['**']); // and so does `b/d`
      // `b/d` keeps its inode in the new `b`, but its subscription went with the old `b`.
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

  // @parcel/watcher keeps one native tree per directory per process. A tree moved out of the
  // root and deleted there leaves watches the kernel has dropped; the unsubscribe then fails
  // half-way and the old tree stays, and a new subscription of that directory reused it without
  // crawling: directories made meanwhile went unwatched, and their files unseen.
  it('never trusts a new watch to a directory whose old native watch was left behind', async () => {
    const { root, outside, watcher: first } = await setup();
    await first.close();
    // Crawled by the start, so the root's own native watch holds `m`'s subdirectories.
    mkdirSync(join(root, 'm/sub/subsub'), { recursive: true });
    mkdirSync(join(root, 'k/kk'), { recursive: true });
    const watcher = await TreeWatcher.start(root, SETTLE);
    const scanner = new ChangeScanner(root, { watcher });
    await scanner.scanWatched(['**']);
    renameSync(join(root, 'm'), join(outside, 'm'));
    await scanner.scanWatched(['**']);
    rmSync(join(outside, 'm'), { recursive: true });
    await watcher.close();
    mkdirSync(join(root, 'n/deep'), { recursive: true });
    let again: TreeWatcher | undefined;
    try {
      again = await TreeWatcher.start(root, SETTLE);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'FILES_WATCH_UNAVAILABLE',
        details: { leftBehind: true },
      });
      expect(String(error)).toMatch(/could not be removed/);
    }
    try {
      // Refused, the caller walks; accepted, the watch must see inside the new directory.
      const next = new ChangeScanner(root, {
        baseline: scanner.current,
        ...(again ? { watcher: again } : {}),
      });
      await next.scanWatched(['**']);
      writeFileSync(join(root, 'n/deep/f.ts'), 'f');
      expect(created(await next.scanWatched(['**']))).toEqual(['n/deep/f.ts']);
    } finally {
      await again?.close();
    }
  });

  it('walks a new directory on every scan where its old native watch was left behind', async () => {
    const { root, outside, watcher, scanner } = await setup();
    try {
      await scanner.scanWatched(['**']);
      mkdirSync(join(root, 'n/m/sub'), { recursive: true });
      await scanner.scanWatched(['**']); // `n` is new: it has a subscription of its own
      renameSync(join(root, 'n/m'), join(outside, 'm'));
      await scanner.scanWatched(['**']);
      rmSync(join(outside, 'm'), { recursive: true });
      // `n` replaced: its subscription goes (and fails to), and the new `n` cannot have one.
      rmSync(join(root, 'n'), { recursive: true });
      mkdirSync(join(root, 'n/deep'), { recursive: true });
      await scanner.scanWatched(['**']);
      for (const name of ['f.ts', 'g.ts']) {
        writeFileSync(join(root, `n/deep/${name}`), name);
        const result = await scanner.scanWatched(['**']);
        expect(result.by).toBe('events');
        expect(created(result)).toEqual([`n/deep/${name}`]);
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
      await scanner.scanWatched(['**']); // `new` has a subscription, and gets markers
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
