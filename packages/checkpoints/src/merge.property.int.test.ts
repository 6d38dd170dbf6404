import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, makeExecution } from '../test/helpers.js';
import { type Changes, type FileSpec, gitFold, makeBranches } from '../test/merge-helpers.js';

afterEach(cleanupExecutions);

/** A generated scenario: the base's files and each branch's changes. */
interface Plan {
  base: Changes;
  branches: Record<string, Changes>;
}

const DIRS = ['', 'a/', 'a/b/', 'c/'];
/** Runs per property: ~7 s each here; raise it for a longer local search. */
const RUNS = Number(process.env.MERGE_PROPERTY_RUNS ?? 30);

/** Decisions come from a list of numbers, so shrinking them to 0 means "change nothing". */
function chooser(choices: readonly number[]): (k: number) => number {
  let at = 0;
  return (k) => (choices[at++ % choices.length] ?? 0) % k;
}

const text = (lines: readonly string[]) => lines.join('');

/**
 * Conflict-free by construction: a base file is untouched, owned by one branch (delete, mode
 * flip, symlink swap, rewrite), or shared, where branches edit lines 0, 3, 6... (one line each,
 * never adjacent: git and diff3 both need an unchanged line between two sides' hunks) and one
 * branch may flip the executable bit. New files get names no other branch uses.
 */
function cleanPlan(
  files: readonly { dir: number; kind: number; lines: number }[],
  n: number,
  choices: readonly number[],
): Plan {
  const pick = chooser(choices);
  const base: Changes = {};
  const branches: Changes[] = Array.from({ length: n }, () => ({}));
  files.forEach((file, i) => {
    const path = `${DIRS[file.dir % DIRS.length]}f${i}.txt`;
    const lines = Array.from({ length: file.lines }, (_, j) => `base ${i} line ${j}\n`);
    const kind = file.kind % 4; // 0, 1 text; 2 executable; 3 symlink
    const mode = kind === 2 ? 0o755 : 0o644;
    base[path] = kind === 3 ? { link: `target-${i}` } : { content: text(lines), mode };
    const role = pick(3);
    if (role === 1 || (role === 2 && kind === 3)) {
      const changes = branches[pick(n)] as Changes;
      const op = pick(4);
      if (op === 0) changes[path] = null;
      else if (kind === 3) changes[path] = op === 2 ? `was a link ${i}\n` : { link: `moved-${i}` };
      else if (op === 1)
        changes[path] = { content: text(lines), mode: mode === 0o755 ? 0o644 : 0o755 };
      else if (op === 2) changes[path] = { link: `now-a-link-${i}` };
      else changes[path] = { content: `rewritten ${i}\n`, mode };
    } else if (role === 2) {
      const versions = branches.map(() => [...lines] as (string | null)[]);
      const inserted = branches.map(() => new Map<number, string>());
      for (let j = 0; j < lines.length; j += 3) {
        const who = pick(n + 1) - 1;
        if (who < 0) continue;
        const op = pick(3);
        const version = versions[who] as (string | null)[];
        if (op === 0) version[j] = `branch ${who} edits ${i}:${j}\n`;
        else if (op === 1) version[j] = null;
        else inserted[who]?.set(j, `branch ${who} inserts ${i}:${j}\n`);
      }
      const flipper = pick(n + 1) - 1;
      versions.forEach((version, k) => {
        const out: string[] = [];
        version.forEach((line, j) => {
          const extra = inserted[k]?.get(j);
          if (extra) out.push(extra);
          if (line !== null) out.push(line);
        });
        const newMode = k === flipper ? (mode === 0o755 ? 0o644 : 0o755) : mode;
        if (text(out) !== text(lines) || newMode !== mode)
          (branches[k] as Changes)[path] = { content: text(out), mode: newMode };
      });
    }
  });
  branches.forEach((changes, k) => {
    for (let m = pick(4); m > 0; m--) {
      const spec: FileSpec = pick(4) === 0 ? { link: `link-${k}-${m}` } : `new ${k} ${m}\n`;
      changes[`${DIRS[pick(DIRS.length)]}new-${k}-${m}.txt`] = spec;
    }
    if (pick(3) === 0) changes[`only-${k}/deep/file.txt`] = `only ${k}\n`;
  });
  return { base, branches: Object.fromEntries(branches.map((changes, k) => [`b${k}`, changes])) };
}

/**
 * Two branches with a mix of conflicts and near misses per file: same line edited differently
 * (conflict), adjacent lines (conflict in git and diff3), the same edit (clean), far apart
 * lines (clean), modify/delete, binary, symlink targets, add/add with different content or only
 * a different mode.
 */
function conflictPlan(files: number, choices: readonly number[]): Plan {
  const pick = chooser(choices);
  const base: Changes = {};
  const one: Changes = {};
  const two: Changes = {};
  const edit = (lines: string[], j: number, value: string) =>
    text(lines.map((line, k) => (k === j ? value : line)));
  for (let i = 0; i < files; i++) {
    const path = `${DIRS[i % DIRS.length]}f${i}.txt`;
    const lines = Array.from({ length: 8 }, (_, j) => `base ${i} line ${j}\n`);
    base[path] = text(lines);
    const kind = pick(7);
    if (kind === 1) {
      one[path] = edit(lines, 3, 'one\n');
      two[path] = edit(lines, 3, 'two\n');
    } else if (kind === 2) {
      one[path] = edit(lines, 3, 'one\n');
      two[path] = edit(lines, 4, 'two\n');
    } else if (kind === 3) {
      one[path] = edit(lines, 3, 'same\n');
      two[path] = edit(lines, 3, 'same\n');
    } else if (kind === 4) {
      one[path] = edit(lines, 0, 'one\n');
      two[path] = edit(lines, 6, 'two\n');
    } else if (kind === 5) {
      const [modifier, deleter] = pick(2) ? [one, two] : [two, one];
      modifier[path] = edit(lines, 2, 'modified\n');
      deleter[path] = null;
    } else if (kind === 6) {
      (pick(2) ? one : two)[path] = edit(lines, 5, 'alone\n');
    }
  }
  base['bin.dat'] = Buffer.from([0, 1, 2, 3]);
  const binary = pick(3);
  if (binary > 0) one['bin.dat'] = Buffer.from([0, 1, 2, 4]);
  if (binary === 1) two['bin.dat'] = Buffer.from([0, 1, 2, 5]);
  base.ln = { link: 'target' };
  const link = pick(3);
  if (link > 0) one.ln = { link: 'one' };
  if (link > 0) two.ln = { link: link === 1 ? 'two' : 'one' };
  const added = pick(4);
  if (added === 1) [one['added.txt'], two['added.txt']] = ['one\n', 'two\n'];
  if (added === 2) {
    one['added.txt'] = { content: 'same\n', mode: 0o755 };
    two['added.txt'] = { content: 'same\n', mode: 0o644 };
  }
  if (added === 3) [one['added.txt'], two['added.txt']] = ['same\n', 'same\n'];
  return { base, branches: { one, two } };
}

async function mergeAgainstGit(plan: Plan): Promise<void> {
  const x = makeExecution();
  try {
    const engine = await x.open();
    const made = await makeBranches(x, engine, plan.base, plan.branches);
    const names = Object.keys(made.shas);
    const result = await engine.merge({
      base: made.base,
      branches: names.map((name) => ({ name, ref: made.shas[name] as string })),
      policy: 'fail',
    });
    const git = gitFold(
      x,
      names.map((name) => made.shas[name] as string),
    );
    if (result.ok) expect({ tree: result.tree, conflicted: [] }).toEqual(git);
    else expect(result.conflicts.map((conflict) => conflict.path)).toEqual(git.conflicted);
  } finally {
    cleanupExecutions();
  }
}

describe('CheckpointEngine merge() against git merge-tree', () => {
  it(
    'writes the tree git writes for conflict-free branches (1 to 3)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ dir: fc.nat(3), kind: fc.nat(3), lines: fc.integer({ min: 1, max: 10 }) }),
            { minLength: 1, maxLength: 8 },
          ),
          fc.integer({ min: 1, max: 3 }),
          fc.array(fc.nat(30), { minLength: 40, maxLength: 40 }),
          async (files, n, choices) => {
            const plan = cleanPlan(files, n, choices);
            await mergeAgainstGit(plan);
          },
        ),
        { numRuns: RUNS },
      );
    },
    60_000 + RUNS * 2_000,
  );

  it(
    'reports a conflict on exactly the paths git does',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 6 }),
          fc.array(fc.nat(30), { minLength: 20, maxLength: 20 }),
          async (files, choices) => mergeAgainstGit(conflictPlan(files, choices)),
        ),
        { numRuns: RUNS },
      );
    },
    60_000 + RUNS * 2_000,
  );
});
