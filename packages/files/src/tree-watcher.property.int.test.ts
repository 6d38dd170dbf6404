import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeScanner } from './change-scanner.js';
import { type FileChanges, type FileSnapshot, snapshot } from './snapshot.js';
import { applyFileOp, fileOp } from './testing/file-ops.js';
import { startWatcherOrWalk } from './testing/watcher-or-walk.js';

// The watcher-fed scan against a walk of the same tree at the same moments: random file
// operations (the ones that lose inotify events when handled naively: new directories filled
// before their watch exists, trees moved in and out, directories replaced by files, symlinks,
// mode changes, .gitignore edits) between scans, and restarts of the watcher in between.
afterEach(cleanupTempDirs);

// A loaded CI machine may take longer than the default 2 s to deliver an event; a late marker
// makes a scan walk, which these tests would see as a failure.
const SETTLE = { settleTimeoutMs: 15_000 };

const RUNS = Number(process.env.HANKWEAVE_WATCH_RUNS ?? 25);
/** A step: some operations, then a scan; sometimes the watcher restarts before the scan. */
const step = fc.record({ ops: fc.array(fileOp, { maxLength: 5 }), restart: fc.boolean() });
const patternSets = fc.constantFrom(['**'], ['**/*.ts', '*.md', '**/keep.log']);

const statOf = (files: FileSnapshot) =>
  [...files]
    .map(([path, stat]) => [
      path,
      stat.kind,
      stat.size,
      stat.mode,
      stat.ino,
      stat.mtimeNs,
      stat.ctimeNs,
    ])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

const pathsOf = (changes: FileChanges) => ({
  created: changes.created.map((change) => change.path),
  modified: changes.modified.map((change) => change.path),
  deleted: changes.deleted.map((change) => change.path),
});

describe('TreeWatcher with ChangeScanner.scanWatched (property)', () => {
  it('sees what a walk sees, step by step and across restarts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 6 }),
        patternSets,
        async (steps, patterns) => {
          const { path: work } = await makeTempDir('hankweave-watch-prop-');
          const root = join(work, 'root');
          const outside = join(work, 'outside');
          mkdirSync(join(root, 'a/c'), { recursive: true });
          mkdirSync(outside);
          writeFileSync(join(root, 'x.ts'), 'seed');
          writeFileSync(join(root, 'a/c/x.ts'), 'seed');
          let watcher = await startWatcherOrWalk(root, SETTLE);
          let watched = new ChangeScanner(root, watcher ? { watcher } : {});
          const walked = new ChangeScanner(root);
          try {
            await watched.scanWatched(patterns);
            walked.scan(patterns);
            for (const { ops, restart } of steps) {
              for (const each of ops) applyFileOp(root, outside, each);
              if (restart) {
                // A new runtime process: a new watcher and a scanner that starts from the
                // last snapshot it knew (the first scan after a restart walks).
                const known = new Map(watched.current);
                await watcher?.close();
                watcher = await startWatcherOrWalk(root, SETTLE);
                watched = new ChangeScanner(root, {
                  baseline: known,
                  ...(watcher ? { watcher } : {}),
                });
              }
              const fromEvents = await watched.scanWatched(patterns);
              const fromWalk = walked.scan(patterns);
              expect(statOf(fromEvents.snapshot)).toEqual(statOf(fromWalk.snapshot));
              expect(statOf(fromEvents.snapshot)).toEqual(statOf(snapshot(root, patterns)));
              expect(pathsOf(fromEvents.changes)).toEqual(pathsOf(fromWalk.changes));
              if (watcher && !restart && fromEvents.by === 'walk') {
                // Only the first scan, a pattern change or a root .gitignore edit may walk.
                expect(fromEvents.walkReason).toMatch(/root \.gitignore|patterns|exclude/);
              }
            }
          } finally {
            await watcher?.close();
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);
});
