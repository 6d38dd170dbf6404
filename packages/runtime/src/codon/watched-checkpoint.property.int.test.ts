import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointEngine } from '@hankweave/checkpoints';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { ChangeScanner, comparePaths, TreeWatcher } from '@hankweave/files';
import { applyFileOp, fileOp } from '@hankweave/files/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

// Issue 39's correctness property: a checkpoint whose `changed` hint comes from a watched scan
// commits the tree that a checkpoint walking every file commits, and the tree native git writes
// for the same files; random file operations between checkpoints, and restarts of the runtime
// (a new watcher, scanner and engine) between two of them.
afterEach(cleanupTempDirs);

// A loaded CI machine may take longer than the default 2 s to deliver an event; a late marker
// makes a scan walk, which these tests would see as a failure.
const SETTLE = { settleTimeoutMs: 15_000 };

const RUNS = Number(process.env.HANKWEAVE_WATCH_RUNS ?? 15);
const PATTERNS = ['**'];

const step = fc.record({ ops: fc.array(fileOp, { maxLength: 5 }), restart: fc.boolean() });

/** The tree `git add` + `git write-tree` makes of `files`, from a fresh index each time. */
function nativeTree(gitDir: string, workTree: string, files: readonly string[]): string {
  const run = (args: string[], input?: string) =>
    execFileSync('git', args, {
      input,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_DIR: gitDir,
        GIT_WORK_TREE: workTree,
        GIT_INDEX_FILE: join(gitDir, `index-${process.pid}`),
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_LITERAL_PATHSPECS: '1',
        HOME: gitDir,
      },
      cwd: workTree,
    }).toString('utf8');
  run(['read-tree', '--empty']);
  if (files.length > 0) {
    run(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], `${files.join('\0')}\0`);
  }
  return run(['write-tree']).trim();
}

describe('checkpoints from watched scans (property)', () => {
  it('commit the tree a full walk commits and native git writes, across restarts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const { path: work } = await makeTempDir('hankweave-watch-ckpt-');
        const hinted = join(work, 'hinted');
        const root = join(hinted, 'agentRoot');
        const walking = join(work, 'walking');
        const outside = join(work, 'outside');
        const gitDir = join(work, 'native.git');
        mkdirSync(join(root, 'a/c'), { recursive: true });
        mkdirSync(walking);
        mkdirSync(outside);
        execFileSync('git', ['init', '-q', '--bare', gitDir]);
        writeFileSync(join(root, 'x.ts'), 'seed');
        writeFileSync(join(root, 'a/c/x.ts'), 'seed');

        const open = async () => {
          const watcher = await TreeWatcher.start(root, SETTLE);
          return {
            watcher,
            scanner: new ChangeScanner(root, { watcher }),
            engine: await CheckpointEngine.open({ executionDir: hinted, fsync: false }),
            // A new process knows no change yet: its first checkpoint has no hint, as in the
            // runtime (CheckpointHint).
            hintValid: false,
          };
        };
        let live = await open();
        const walker = await CheckpointEngine.open({ executionDir: walking, fsync: false });
        const codon = { type: 'completed' as const, codonName: 'c', runId: 'r', durationMs: 1 };
        try {
          for (const [index, { ops, restart }] of [
            { ops: [], restart: false },
            ...steps,
          ].entries()) {
            for (const each of ops) applyFileOp(root, outside, each);
            if (restart) {
              await live.watcher.close();
              await live.engine.close();
              live = await open();
            }
            const { snapshot, changes } = await live.scanner.scanWatched(PATTERNS);
            const files = [...snapshot.keys()].sort(comparePaths);
            const changed = [...changes.created, ...changes.modified, ...changes.deleted].map(
              (change) => change.path,
            );
            const codonId = `step-${index}`;
            const fromHint = await live.engine.checkpoint({
              ...codon,
              codonId,
              files,
              ...(live.hintValid ? { changed } : {}),
            });
            live.hintValid = true;
            // The second engine walks a copy of the same files (an engine refuses a linked
            // agentRoot), links copied as links, modes kept; fifos (never tracked) left out.
            rmSync(join(walking, 'agentRoot'), { recursive: true, force: true });
            cpSync(root, join(walking, 'agentRoot'), {
              recursive: true,
              verbatimSymlinks: true,
              filter: (source) => {
                const stats = lstatSync(source);
                return stats.isFile() || stats.isDirectory() || stats.isSymbolicLink();
              },
            });
            const fromWalk = await walker.checkpoint({ ...codon, codonId, files });
            expect(fromHint.skipped).toEqual([]);
            expect(fromHint.tree).toBe(fromWalk.tree);
            expect(fromHint.tree).toBe(nativeTree(gitDir, root, files));
          }
        } finally {
          await live.watcher.close();
          await live.engine.close();
          await walker.close();
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
