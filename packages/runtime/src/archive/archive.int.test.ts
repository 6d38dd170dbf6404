import { randomBytes } from 'node:crypto';
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
import { dirname, join } from 'node:path';
import { FakeHarness } from '@hankweave/harness/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { archiveManifestSchema } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../index.js';

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});

// Each path form of reference §5.6, one partial, then rollbacks that bring the files back.
const hank = {
  meta: { name: 'archive-test', version: '1.0.0' },
  hank: [
    codon('gen', {
      archiveOnSuccess: ['drafts/**'],
      rigSetup: [{ type: 'copy', copy: { from: './template', to: 'src' }, archiveOnSuccess: true }],
    }),
    {
      type: 'loop',
      id: 'polish',
      name: 'Polish',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      archiveOnSuccess: ['summary.md'],
      codons: [codon('edit', { archiveOnSuccess: ['edit-notes.md'] })],
    },
    codon('final', { archiveOnSuccess: ['out/**'] }),
  ],
};

describe('archiveOnSuccess', () => {
  let root: string;
  let executionDir: string;
  let runtime: Runtime;
  const events: HankweaveEvent[] = [];
  const binary = randomBytes(3000);
  const agent = (path: string) => join(executionDir, 'agentRoot', path);
  const archived = (path: string) => join(executionDir, 'rigArchive', path);
  const manifest = () =>
    archiveManifestSchema.parse(
      JSON.parse(readFileSync(join(executionDir, '.hankweave/archive-manifest.json'), 'utf8')),
    );
  const put = (cwd: string, path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), content);
  };
  const ofType = (type: string) => events.filter((event) => event.type === type);
  const indexOf = (predicate: (event: HankweaveEvent) => boolean) => events.findIndex(predicate);
  const runtimeOn = (autostart: boolean) =>
    createRuntime({
      hank,
      hankDir: root,
      dataPath: join(root, 'data'),
      executionBaseDir: join(root, 'executions'),
      ...(executionDir ? { executionDir } : {}),
      harness: new FakeHarness({
        // The fake agent "writes" its files when it starts (after the rig setup).
        script: (options) => {
          const iteration = options.codonId.split('#')[1];
          if (options.codonId === 'gen') {
            put(options.cwd, 'drafts/a.md', 'draft a');
            put(options.cwd, 'drafts/deep/b.bin', binary);
          } else if (options.codonId.startsWith('edit#')) {
            put(options.cwd, 'edit-notes.md', `notes ${iteration}`);
            put(options.cwd, 'summary.md', `summary ${iteration}`);
          } else if (options.codonId === 'final') {
            put(options.cwd, 'out/ok.md', 'ok');
            put(options.cwd, 'out/bad/x.md', 'cannot move');
            // A file where the archive needs a folder: this one path cannot be moved.
            put(dirname(options.cwd), 'rigArchive/final/out/bad', 'in the way');
          }
          return { scenario: { turns: [{ text: 'Done.' }] } };
        },
      }),
      autostart,
      headless: autostart,
      killGraceMs: 200,
    });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'archive-e2e-'));
    mkdirSync(join(root, 'data'));
    writeFileSync(join(root, 'data', 'notes.txt'), 'user data');
    mkdirSync(join(root, 'template'));
    writeFileSync(join(root, 'template', 'tpl.txt'), 'template');
    const first = runtimeOn(true);
    first.on((event) => events.push(event));
    await first.start();
    executionDir = first.executionDir;
    expect((await first.finished).exitCode).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  });

  it('moves a codon’s globs and its rig copy into rigArchive/<codonId>/', () => {
    expect(existsSync(agent('drafts/a.md'))).toBe(false);
    expect(existsSync(agent('src'))).toBe(false);
    expect(readFileSync(archived('gen/drafts/a.md'), 'utf8')).toBe('draft a');
    expect(readFileSync(archived('gen/drafts/deep/b.bin')).equals(binary)).toBe(true);
    expect(readFileSync(archived('gen/src/tpl.txt'), 'utf8')).toBe('template');
    // The user's data is where it was.
    expect(readFileSync(join(root, 'data', 'notes.txt'), 'utf8')).toBe('user data');
  });

  it('moves a loop codon’s files per iteration, and the loop’s list once at its end', () => {
    expect(readFileSync(archived('polish-0/edit/edit-notes.md'), 'utf8')).toBe('notes 0');
    expect(readFileSync(archived('polish-1/edit/edit-notes.md'), 'utf8')).toBe('notes 1');
    expect(readFileSync(archived('polish-loop/summary.md'), 'utf8')).toBe('summary 1');
    expect(existsSync(agent('summary.md'))).toBe(false);
  });

  it('announces each archiving after codon.completed, the loop’s before its final iteration event', () => {
    const completed = ofType('archive.completed').map((event) => event.data);
    expect(completed).toEqual([
      { codonId: 'gen', archivedPaths: ['drafts/a.md', 'drafts/deep/b.bin', 'src'] },
      { codonId: 'edit#0', archivedPaths: ['edit-notes.md'] },
      { codonId: 'edit#1', archivedPaths: ['edit-notes.md'] },
      { codonId: 'polish', archivedPaths: ['summary.md'] },
    ]);
    const completedAt = (codonId: string) =>
      indexOf((e) => e.type === 'codon.completed' && e.data.codonId === codonId);
    const archiveOf = (codonId: string) =>
      indexOf((e) => e.type.startsWith('archive.') && e.data.codonId === codonId);
    expect(archiveOf('gen')).toBeGreaterThan(completedAt('gen'));
    expect(archiveOf('edit#1')).toBeGreaterThan(completedAt('edit#1'));
    const finalIteration = indexOf(
      (e) => e.type === 'loop.iteration.completed' && e.data.isFinal === true,
    );
    expect(archiveOf('polish')).toBeGreaterThan(archiveOf('edit#1'));
    expect(archiveOf('polish')).toBeLessThan(finalIteration);
  });

  it('reports a path it cannot move as archive.partial and leaves that file in place', () => {
    expect(ofType('archive.partial').map((event) => event.data)).toEqual([
      {
        codonId: 'final',
        archivedPaths: ['out/ok.md'],
        failedPaths: [{ path: 'out/bad/x.md', error: expect.any(String) }],
      },
    ]);
    expect(readFileSync(agent('out/bad/x.md'), 'utf8')).toBe('cannot move');
    expect(readFileSync(archived('final/out/ok.md'), 'utf8')).toBe('ok');
  });

  it('records one manifest entry per moved path with the codon’s completion checkpoint', () => {
    const state = JSON.parse(readFileSync(join(executionDir, '.hankweave/state.json'), 'utf8'));
    const completion = (codonId: string) =>
      state.runs[0].codons.find((c: { codonId: string }) => c.codonId === codonId)
        .completionCheckpoint;
    const entries = manifest().entries;
    expect(entries.map((entry) => [entry.codonId, entry.sourcePath, entry.archivePath])).toEqual([
      ['gen', 'drafts/a.md', 'rigArchive/gen/drafts/a.md'],
      ['gen', 'drafts/deep/b.bin', 'rigArchive/gen/drafts/deep/b.bin'],
      ['gen', 'src', 'rigArchive/gen/src'],
      ['edit#0', 'edit-notes.md', 'rigArchive/polish-0/edit/edit-notes.md'],
      ['edit#1', 'edit-notes.md', 'rigArchive/polish-1/edit/edit-notes.md'],
      ['polish', 'summary.md', 'rigArchive/polish-loop/summary.md'],
      ['final', 'out/ok.md', 'rigArchive/final/out/ok.md'],
    ]);
    for (const entry of entries) {
      const owner = entry.codonId === 'polish' ? 'edit#1' : entry.codonId;
      expect(entry.checkpointSha, entry.archivePath).toBe(completion(owner));
      expect(typeof completion(owner)).toBe('string');
    }
    expect(entries[3]?.loopContext).toEqual({
      loopId: 'polish',
      iteration: 0,
      codonIndexInLoop: 0,
    });
    expect(entries[5]?.loopContext).toMatchObject({ loopId: 'polish', iteration: 1 });
  });

  it('a rollback moves back the archives of the undone codons, newest first, and drops them', async () => {
    runtime = runtimeOn(false);
    const seen: HankweaveEvent[] = [];
    runtime.on((event) => seen.push(event));
    await runtime.start();
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'gen', checkpointType: 'completed' },
    });
    const restores = seen.filter((event) => event.type === 'rollback.archiveRestore');
    expect(restores.map((event) => event.data)).toEqual([
      { codonId: 'final', restoredPaths: ['out/ok.md'], status: 'completed' },
      { codonId: 'polish', restoredPaths: ['summary.md'], status: 'completed' },
      { codonId: 'edit#1', restoredPaths: ['edit-notes.md'], status: 'completed' },
      { codonId: 'edit#0', restoredPaths: ['edit-notes.md'], status: 'completed' },
    ]);
    // Every archived file came back; those the undone codons made (they did not exist at gen's
    // completion) then moved on to the rollback's debris (issue 38). Both iterations archived
    // edit-notes.md: the older content is the one restored.
    const debris = seen.find((event) => event.type === 'rollback.completed')?.data.debris as {
      directory: string;
      files: string[];
    };
    const moved = (path: string) =>
      readFileSync(join(executionDir, debris.directory, 'agentRoot', path), 'utf8');
    expect(debris.files.sort()).toEqual([
      'edit-notes.md',
      'out/bad/x.md',
      'out/ok.md',
      'summary.md',
    ]);
    expect(moved('edit-notes.md')).toBe('notes 0');
    expect(moved('summary.md')).toBe('summary 1');
    expect(moved('out/ok.md')).toBe('ok');
    expect(existsSync(agent('edit-notes.md'))).toBe(false);
    // gen's own archive belongs to the target: it stays archived.
    expect(manifest().entries.map((entry) => entry.codonId)).toEqual(['gen', 'gen', 'gen']);
    expect(readdirSync(join(executionDir, 'rigArchive')).sort()).toEqual(['final', 'gen']);
    expect(readdirSync(archived('final/out'))).toEqual(['bad']); // the blocking file, not ours

    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'gen', checkpointType: 'rig-setup' },
    });
    expect(seen.filter((e) => e.type === 'rollback.archiveRestore').at(-1)?.data).toEqual({
      codonId: 'gen',
      restoredPaths: ['src', 'drafts/deep/b.bin', 'drafts/a.md'],
      status: 'completed',
    });
    // The rig copy existed at gen's rig-setup checkpoint and stays; gen's agent made the drafts
    // after it, so they come back from the archive and go on to the debris.
    expect(readFileSync(agent('src/tpl.txt'), 'utf8')).toBe('template');
    const lastDebris = seen.filter((e) => e.type === 'rollback.completed').at(-1)?.data.debris as {
      directory: string;
      files: string[];
    };
    expect(lastDebris.files.sort()).toEqual(['drafts/a.md', 'drafts/deep/b.bin']);
    expect(
      readFileSync(join(executionDir, lastDebris.directory, 'agentRoot/drafts/deep/b.bin')).equals(
        binary,
      ),
    ).toBe(true);
    expect(manifest().entries).toEqual([]);
    expect(existsSync(archived('gen'))).toBe(false);
  }, 60_000);
});

// Rolling back past a codon whose rig copy was archived: the copy comes back from the archive and
// the rig cleanup then removes it, as a copy that was never archived would be; the agent's own
// (untracked) files come back, and go on to the debris (they did not exist at the start).
describe('archiveOnSuccess then a rollback to the initial checkpoint', () => {
  it('restores the archive, then cleans the undone rig copy', async () => {
    const root = mkdtempSync(join(tmpdir(), 'archive-initial-'));
    try {
      mkdirSync(join(root, 'data'));
      mkdirSync(join(root, 'template'));
      writeFileSync(join(root, 'template', 'tpl.txt'), 'template');
      const options = (executionDir?: string) => ({
        hank: {
          meta: { name: 'archive-initial', version: '1.0.0' },
          hank: [
            codon('gen', {
              archiveOnSuccess: ['drafts/**'],
              rigSetup: [
                { type: 'copy', copy: { from: './template', to: 'src' }, archiveOnSuccess: true },
              ],
            }),
          ],
        },
        hankDir: root,
        dataPath: join(root, 'data'),
        executionBaseDir: join(root, 'executions'),
        ...(executionDir ? { executionDir } : {}),
        harness: new FakeHarness({
          script: (start) => {
            mkdirSync(join(start.cwd, 'drafts'), { recursive: true });
            writeFileSync(join(start.cwd, 'drafts', 'a.md'), 'draft');
            return { scenario: { turns: [{ text: 'Done.' }] } };
          },
        }),
        killGraceMs: 200,
      });
      const first = createRuntime({ ...options(), autostart: true, headless: true });
      await first.start();
      expect((await first.finished).exitCode).toBe(0);
      const dir = first.executionDir;
      expect(existsSync(join(dir, 'rigArchive/gen/src/tpl.txt'))).toBe(true);
      const state = JSON.parse(readFileSync(join(dir, '.hankweave/state.json'), 'utf8'));
      const second = createRuntime({ ...options(dir), autostart: false });
      const seen: HankweaveEvent[] = [];
      second.on((event) => seen.push(event));
      await second.start();
      try {
        await second.command({
          type: 'rollback.toCheckpoint',
          data: { checkpointSha: state.initialCheckpoint },
        });
      } finally {
        await second.close();
      }
      const types = seen.map((event) => event.type);
      expect(types.indexOf('rollback.archiveRestore')).toBeLessThan(
        types.indexOf('rollback.rigCleanup'),
      );
      expect(seen.find((e) => e.type === 'rollback.archiveRestore')?.data).toEqual({
        codonId: 'gen',
        restoredPaths: ['src', 'drafts/a.md'],
        status: 'completed',
      });
      expect(existsSync(join(dir, 'agentRoot/src'))).toBe(false);
      // The agent's draft came back from the archive; it did not exist at the initial
      // checkpoint, so it then went to the debris, byte for byte (issue 38).
      const debris = seen.find((e) => e.type === 'rollback.completed')?.data.debris as {
        directory: string;
        files: string[];
      };
      expect(debris.files).toEqual(['drafts/a.md']);
      expect(readFileSync(join(dir, debris.directory, 'agentRoot/drafts/a.md'), 'utf8')).toBe(
        'draft',
      );
      expect(existsSync(join(dir, 'agentRoot/drafts'))).toBe(false);
      expect(readdirSync(join(dir, 'rigArchive'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
