import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atDepth, seededRandom } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, type Execution, input, makeExecution } from '../test/helpers.js';
import type { CheckpointEngine } from './checkpoint-engine.js';
import { assertRepoMatchesGit, runNativeGit } from './testing.js';

afterEach(cleanupExecutions);

type Kind = 'file' | 'exec' | 'link';
interface Item {
  kind: Kind;
  content: string;
}

const DIRS = ['', 'a/', 'a/b/', 'a/b/c/', 'a-b/', 'a.b/', 'd/', 'd/e/', 'd/e/f/', 'z/'];
const NAMES = ['a', 'b', 'a-b', 'a.b', 'f0', 'f1.txt', 'f2.sh', 'c', 'e'];
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * A work tree and a model of it: every file on disk is tracked, and `changed` collects the
 * paths each step touches (what a caller's file-system events would report).
 */
class World {
  readonly items = new Map<string, Item>();
  changed = new Set<string>();
  private serial = 0;

  constructor(
    readonly x: Execution,
    readonly random: () => number,
  ) {}

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)] as T;
  }

  /** Puts a file, executable or symlink at `path`, clearing files and directories in the way. */
  put(path: string, kind: Kind): void {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const ancestor = parts.slice(0, i).join('/');
      if (this.items.has(ancestor)) this.drop(ancestor); // a file turns into a directory
    }
    if ([...this.items.keys()].some((other) => other.startsWith(`${path}/`))) {
      this.dropDir(path); // a directory turns into a file
    }
    this.x.remove(path); // an empty directory left on disk
    const content = kind === 'link' ? `target-${this.serial++}` : `${path} ${this.serial++}\n`;
    if (kind === 'link') this.x.link(path, content);
    else this.x.write(path, content, kind === 'exec' ? 0o755 : 0o644);
    this.items.set(path, { kind, content });
    this.changed.add(path);
  }

  drop(path: string): void {
    this.x.remove(path);
    this.items.delete(path);
    this.changed.add(path);
  }

  /** Removes whatever is at `dir` (rm -rf: a file of that name too). */
  dropDir(dir: string): void {
    for (const path of [...this.items.keys()]) {
      if (path === dir || path.startsWith(`${dir}/`)) {
        this.items.delete(path);
        this.changed.add(path);
      }
    }
    this.x.remove(dir);
  }

  step(links: boolean): void {
    const paths = [...this.items.keys()];
    const roll = this.random();
    const kinds: Kind[] = links ? ['file', 'file', 'exec', 'link'] : ['file', 'file', 'exec'];
    if (roll < 0.35 || paths.length < 3) {
      this.put(`${this.pick(DIRS)}${this.pick(NAMES)}`, this.pick(kinds));
    } else if (roll < 0.55) {
      const path = this.pick(paths);
      this.put(path, this.items.get(path)?.kind === 'link' && !links ? 'file' : this.pick(kinds));
    } else if (roll < 0.7) {
      this.drop(this.pick(paths));
    } else if (roll < 0.8) {
      const dir = this.pick(DIRS.filter((d) => d !== '')).slice(0, -1);
      this.dropDir(dir);
    } else if (roll < 0.9) {
      // Mode change only: the content stays.
      const path = this.pick(paths.filter((p) => this.items.get(p)?.kind !== 'link'));
      if (path === undefined) return;
      const item = this.items.get(path) as Item;
      item.kind = item.kind === 'exec' ? 'file' : 'exec';
      this.x.write(path, item.content, item.kind === 'exec' ? 0o755 : 0o644);
      this.changed.add(path);
    } else {
      // A file becomes a directory (or the other way round).
      const path = this.pick(paths);
      this.put(`${path}/${this.pick(NAMES)}`, 'file');
    }
  }

  /** The tracked list as a caller would pass it: byte order, or shuffled now and then. */
  list(): string[] {
    const paths = [...this.items.keys()].sort(byBytes);
    if (this.random() < 0.25) paths.sort(() => this.random() - 0.5);
    return paths;
  }
}

/** The tree native git makes of exactly these files, from a fresh index of its own. */
function gitTree(x: Execution, files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'hankweave-cp-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    if (files.length > 0) {
      runNativeGit(x.exec, ['add', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        env,
        input: files.join('\0'),
      });
    }
    return runNativeGit(x.exec, ['write-tree'], { env }).stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The engine's index as native git reads it: its tree, its entries and a clean status. */
function checkIndex(x: Execution, sha: string, tree: string): void {
  expect(x.git('write-tree').trim()).toBe(tree);
  const staged = x
    .git('ls-files', '-s')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/ 0\t/, '\t'));
  const committed = x
    .git('ls-tree', '-r', sha)
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/ (blob) /, ' '));
  expect(staged).toEqual(committed);
  expect(x.git('status', '--porcelain')).toBe('');
}

function checkDisk(world: World): void {
  for (const [path, item] of world.items) {
    const full = join(world.x.root, path);
    if (item.kind === 'link') expect(readlinkSync(full)).toBe(item.content);
    else {
      expect(readFileSync(full, 'utf8')).toBe(item.content);
      expect((statSync(full).mode & 0o100) !== 0).toBe(item.kind === 'exec');
    }
  }
}

async function run(seed: number, options: { rounds: number; links: boolean; dropIndex: boolean }) {
  const x = makeExecution();
  const world = new World(x, seededRandom(seed));
  let engine: CheckpointEngine = await x.open();
  const snapshots = new Map<string, Map<string, Item>>();
  for (let round = 0; round < options.rounds; round++) {
    world.changed = new Set();
    const steps = 1 + Math.floor(world.random() * 4);
    for (let i = 0; i < steps; i++) world.step(options.links);
    const files = world.list();
    // Now and then no hint (the full stat walk), or a hint with unlisted and unchanged paths.
    const noise = [world.pick(files) ?? 'none', 'never/listed'];
    const changed = world.random() < 0.1 ? undefined : [...world.changed, ...noise];
    const result = await engine.checkpoint(input(files, { changed }));
    const context = `seed ${seed}, round ${round}`;
    expect(result.skipped, context).toEqual([]);
    expect(result.tree, context).toBe(gitTree(x, files));
    checkIndex(x, result.sha, result.tree);
    snapshots.set(result.sha, new Map([...world.items].map(([p, item]) => [p, { ...item }])));

    if (round % 7 === 6) {
      // Back to an earlier checkpoint, trusting the index (nothing changed since the last one).
      const sha = world.pick([...snapshots.keys()]);
      await engine.restore(sha, { changed: [] });
      world.items.clear();
      for (const [path, item] of snapshots.get(sha) as Map<string, Item>) {
        world.items.set(path, { ...item });
      }
      checkDisk(world);
      checkIndex(x, sha, x.git('rev-parse', `${sha}^{tree}`).trim());
    }
    if (round % 10 === 9) {
      // A restarted engine reads the index back (or, without it, rebuilds it from HEAD).
      await engine.close();
      if (options.dropIndex) rmSync(join(engine.gitDir, 'index'));
      engine = await x.open();
    }
  }
  await assertRepoMatchesGit(engine);
}

describe('CheckpointEngine', () => {
  describe('checkpoint() with the changed hint', () => {
    it('writes the tree native git writes after random changes, without symlinks', async () => {
      // One seed in CI, four in `pnpm test:long` (HANKWEAVE_TEST_DEPTH=long).
      const seeds = atDepth({ short: 1, long: 4 });
      for (let seed = 1; seed <= seeds; seed++) {
        await run(seed, { rounds: 25, links: false, dropIndex: false });
      }
    }, 120_000);

    it('writes the tree native git writes after random changes with symlinks', async () => {
      await run(4, { rounds: 25, links: true, dropIndex: false });
    }, 120_000);

    it('writes the tree native git writes when the index is lost between runs', async () => {
      await run(6, { rounds: 20, links: false, dropIndex: true });
    }, 120_000);
  });
});
