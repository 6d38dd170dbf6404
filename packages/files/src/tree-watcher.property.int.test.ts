import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeScanner } from './change-scanner.js';
import { type FileChanges, type FileSnapshot, snapshot } from './snapshot.js';
import { applyFileOp, fileOp } from './testing/file-ops.js';
import { TreeWatcher } from './tree-watcher.js';
import { type TreeListing, UnifiedFileResolver } from './unified-file-resolver.js';

// The watcher-fed scan against a walk of the same tree at the same moments: random file
// operations (the ones that lose inotify events when handled naively: new directories filled
// before their watch exists, trees moved in and out, directories replaced by files, symlinks,
// mode changes, .gitignore edits) between scans, and restarts of the watcher in between.
afterEach(cleanupTempDirs);

// A loaded CI machine may take longer than the default 2 s to deliver an event; a late marker
// makes a scan walk, which these tests would see as a failure.
const SETTLE = { settleTimeoutMs: 15_000 };

const RUNS = Number(process.env.HANKWEAVE_WATCH_RUNS ?? 25);
/**
 * A step: some operations, then a scan and a listing of the tree (in either order: each must see
 * every event, whichever came first); sometimes the watcher restarts before them.
 */
const step = fc.record({
  ops: fc.array(fileOp, { maxLength: 5 }),
  restart: fc.boolean(),
  listFirst: fc.boolean(),
  record: fc.boolean(),
});
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

// Everything a listing says, in its order; specials only as far as they are listed.
const shapeOf = (listing: TreeListing) => ({
  files: listing.files,
  directories: listing.directories,
  specials: listing.specials.filter((path) => listing.files.includes(path)).sort(),
  ignoreFiles: listing.ignoreFiles,
});

const pathsOf = (changes: FileChanges) => ({
  created: changes.created.map((change) => change.path),
  modified: changes.modified.map((change) => change.path),
  deleted: changes.deleted.map((change) => change.path),
});

describe('TreeWatcher with ChangeScanner.scanWatched and listTree (property)', () => {
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
          let watcher = await TreeWatcher.start(root, SETTLE);
          let watched = new ChangeScanner(root, { watcher });
          const walked = new ChangeScanner(root);
          try {
            await watched.scanWatched(patterns);
            walked.scan(patterns);
            const resolver = new UnifiedFileResolver();
            // A listing recorded at an earlier step, as a checkpoint records one.
            let recorded = resolver.listTree(root);
            for (const { ops, restart, listFirst, record } of steps) {
              for (const each of ops) applyFileOp(root, outside, each);
              if (restart) {
                // A new runtime process: a new watcher and a scanner that starts from the
                // last snapshot it knew (the first scan after a restart walks).
                const known = new Map(watched.current);
                await watcher.close();
                watcher = await TreeWatcher.start(root, SETTLE);
                watched = new ChangeScanner(root, {
                  baseline: known,
                  ...{ watcher },
                });
              }
              const listed = listFirst ? await watched.listTree() : undefined;
              const fromEvents = await watched.scanWatched(patterns);
              const fromWalk = walked.scan(patterns);
              const { listing, by, walkReason } = listed ?? (await watched.listTree());
              expect(shapeOf(listing)).toEqual(shapeOf(resolver.listTree(root)));
              if (!restart && by === 'walk') {
                // Only the first listing, or a root .gitignore or exclude edit, may walk.
                expect(walkReason).toMatch(/root \.gitignore|exclude|first listing/);
              }
              // A rollback's shortcut: under the same ignore files, listing under the recorded
              // rules is listing as the tree stands.
              if (sameRecords(listing.ignoreFiles, recorded.ignoreFiles)) {
                const underRecorded = resolver.listTree(root, {
                  ignoreFiles: recorded.ignoreFiles,
                });
                expect(shapeOf(underRecorded)).toEqual(shapeOf(listing));
              }
              if (record) recorded = listing;
              expect(statOf(fromEvents.snapshot)).toEqual(statOf(fromWalk.snapshot));
              expect(statOf(fromEvents.snapshot)).toEqual(statOf(snapshot(root, patterns)));
              expect(pathsOf(fromEvents.changes)).toEqual(pathsOf(fromWalk.changes));
              if (!restart && fromEvents.by === 'walk') {
                // Only the first scan, a pattern change or a root .gitignore edit may walk.
                expect(fromEvents.walkReason).toMatch(/root \.gitignore|patterns|exclude/);
              }
            }
          } finally {
            await watcher.close();
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);
});

function sameRecords(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
