import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { EXAMPLE_DIR, makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';
import type { Runtime } from '../index.js';

// Issue 38: a rollback leaves agentRoot as the checkpoint had it, for every file made since,
// tracked or not; such files are moved aside into .hankweave/debris/{runId}/agentRoot (never
// deleted, never out of the execution), listed in rollback.completed and a manifest. What existed
// at the checkpoint, the data link and what the checkpoint's .gitignore rules ignore stay.
describe('a rollback moves aside what was made since its checkpoint', () => {
  let world: TestWorld;
  let executionDir: string;
  let runtime: Runtime;
  let events: HankweaveEvent[];
  let outside: string;
  const agentRoot = () => join(executionDir, 'agentRoot');
  const at = (path: string) => join(agentRoot(), path);
  const shaOf = (grep: string) =>
    shadowGit(executionDir, ['log', '--all', '--format=%H', `--grep=^${grep} `]).trim();
  const lastDebris = () => {
    const completed = events.filter((event) => event.type === 'rollback.completed').at(-1);
    return completed?.data.debris as
      | { directory: string; count: number; files: string[]; removedDirectories: number }
      | undefined;
  };
  /** Every entry under agentRoot (the data link's content excluded), with kind or content. */
  const tree = (root: string) => {
    const entries: Record<string, string> = {};
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        const name = relative(root, path);
        if (entry.isSymbolicLink()) entries[name] = `-> ${readlinkSync(path)}`;
        else if (entry.isDirectory()) {
          entries[`${name}/`] = '';
          visit(path);
        } else if (entry.isFile()) entries[name] = readFileSync(path, 'utf8');
        else entries[name] = '<special>';
      }
    };
    visit(root);
    return entries;
  };

  beforeAll(async () => {
    // The polish passes also leave an untracked scratch file, as agents do.
    const script = JSON.parse(readFileSync(join(EXAMPLE_DIR, 'model-script.json'), 'utf8'));
    const polish = script.conversations.find((c: { name: string }) => c.name === 'polish');
    polish.turns[0].content[0].bash.command +=
      ' && mkdir -p drafts && date > drafts/polish-draft.txt';
    world = await makeWorld({
      script,
      files: { 'templates/notes/.gitignore': 'build/\n*.log\n' },
    });
    outside = mkdtempSync(join(tmpdir(), 'hankweave-outside-'));
    writeFileSync(join(outside, 'precious.txt'), 'not the agent’s');
    const first = runtimeFor(world);
    await first.runtime.start();
    executionDir = first.runtime.executionDir;
    expect((await first.runtime.finished).exitCode).toBe(0);
    const second = runtimeFor(world, { executionDir, autostart: false });
    runtime = second.runtime;
    events = second.events;
    await runtime.start();
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await world.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('moves aside the untracked files of the codons it undoes', async () => {
    expect(existsSync(at('drafts/polish-draft.txt'))).toBe(true);
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'completed' },
    });
    expect(lastDebris()).toMatchObject({
      files: ['drafts/polish-draft.txt'],
      removedDirectories: 1,
    });
    expect(existsSync(at('drafts'))).toBe(false);
  });

  it('moves new files of every kind aside, keeps ignored output, hides nothing behind a new .gitignore', async () => {
    const atCheckpoint = tree(agentRoot());
    // What undone codons could leave: a half-written temp file beside a tracked one, a new
    // directory, a link out of the execution, a fifo, a .gitignore that ignores everything,
    // and build output that the checkpoint's rules ignore.
    writeFileSync(at('notes/observations.md.tmp.4242.c0ffee'), 'half');
    mkdirSync(at('scratch/deep'), { recursive: true });
    writeFileSync(at('scratch/deep/notes.txt'), 'scratch');
    symlinkSync(outside, at('link-out'));
    execFileSync('mkfifo', [at('notes/pipe')]);
    writeFileSync(at('.gitignore'), '*\n');
    writeFileSync(at('notes/.gitignore'), '');
    mkdirSync(at('notes/build'));
    writeFileSync(at('notes/build/out.bin'), 'built');
    writeFileSync(at('notes/debug.log'), 'log');
    writeFileSync(at('summary.md'), 'changed since');

    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'completed' },
    });
    const debris = lastDebris();
    expect(debris).toMatchObject({ count: 5, removedDirectories: 2 });
    expect(debris?.files.sort()).toEqual([
      '.gitignore',
      'link-out',
      'notes/observations.md.tmp.4242.c0ffee',
      'notes/pipe',
      'scratch/deep/notes.txt',
    ]);
    // The tree is the checkpoint's, plus the ignored build output, with the tracked file
    // restored; the untracked .gitignore that existed keeps its new (empty) content.
    expect(tree(agentRoot())).toEqual({
      ...atCheckpoint,
      'notes/.gitignore': '',
      'notes/build/': '',
      'notes/build/out.bin': 'built',
      'notes/debug.log': 'log',
    });
    // Moved, never deleted, never followed out.
    const moved = join(executionDir, debris?.directory ?? '?', 'agentRoot');
    expect(debris?.directory).toMatch(/^\.hankweave\/debris\/[\w.-]+$/);
    expect(readFileSync(join(moved, 'notes/observations.md.tmp.4242.c0ffee'), 'utf8')).toBe('half');
    expect(readFileSync(join(moved, 'scratch/deep/notes.txt'), 'utf8')).toBe('scratch');
    expect(lstatSync(join(moved, 'link-out')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(moved, 'notes/pipe')).isFIFO()).toBe(true);
    expect(readdirSync(outside)).toEqual(['precious.txt']);
    const manifest = JSON.parse(
      readFileSync(join(executionDir, debris?.directory ?? '?', 'manifest.json'), 'utf8'),
    );
    expect(manifest).toMatchObject({
      version: 1,
      checkpoint: shaOf('completed:summarize'),
      removedDirectories: ['scratch/deep', 'scratch'],
      failed: [],
    });
    expect(manifest.files.sort()).toEqual(debris?.files);
  });

  it('moves a directory the agent replaced by a link as the link, and restores the tracked files', async () => {
    renameSync(at('notes'), join(outside, 'notes-moved-by-agent'));
    mkdirSync(join(outside, 'notes'));
    writeFileSync(join(outside, 'notes/observations.md'), 'outside, not ours');
    symlinkSync(join(outside, 'notes'), at('notes'));
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'completed' },
    });
    expect(lastDebris()?.files).toEqual(['notes']);
    expect(lstatSync(at('notes')).isDirectory()).toBe(true);
    const sha = shaOf('completed:summarize');
    expect(readFileSync(at('notes/observations.md'), 'utf8')).toBe(
      shadowGit(executionDir, ['show', `${sha}:notes/observations.md`]),
    );
    expect(readFileSync(join(outside, 'notes/observations.md'), 'utf8')).toBe('outside, not ours');
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('not the agent’s');
  });

  it('moves what the codon itself made when rolling back to its start (its rig-setup checkpoint)', async () => {
    writeFileSync(at('made-later.txt'), 'later');
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'observe', checkpointType: 'start' },
    });
    // observe's agent wrote notes/observations.md (tracked) after its rig ran; summary.md came
    // later still: both are debris now, as is the untracked file.
    expect(lastDebris()?.files.sort()).toEqual([
      'made-later.txt',
      'notes/observations.md',
      'summary.md',
    ]);
    // (notes/.gitignore, untracked, went with the directory the previous test's agent took.)
    expect(Object.keys(tree(agentRoot())).sort()).toEqual([
      'notes/',
      'notes/README.md',
      'read_only_data_source',
    ]);
  });

  it('refuses to move anything through a planted .hankweave/debris link', async () => {
    const debrisDir = join(executionDir, '.hankweave/debris');
    const before = readdirSync(debrisDir);
    renameSync(debrisDir, join(executionDir, '.hankweave/debris-real'));
    symlinkSync(outside, debrisDir);
    writeFileSync(at('planted-victim.txt'), 'stays');
    try {
      await expect(
        runtime.command({
          type: 'rollback.toCodon',
          data: { codonId: 'summarize', checkpointType: 'completed' },
        }),
      ).rejects.toThrow(/is a symbolic link; a rollback never moves files through a link/);
      expect(readdirSync(outside).sort()).toEqual([
        'notes',
        'notes-moved-by-agent',
        'precious.txt',
      ]);
      expect(readFileSync(at('planted-victim.txt'), 'utf8')).toBe('stays');
    } finally {
      rmSync(debrisDir);
      renameSync(join(executionDir, '.hankweave/debris-real'), debrisDir);
    }
    expect(readdirSync(debrisDir)).toEqual(before);
  });

  it('without a listing for the checkpoint (an older execution), moves nothing and says so', async () => {
    const sha = shaOf('completed:summarize');
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'completed' },
    });
    rmSync(join(executionDir, '.hankweave/checkpoints/listings', `${sha}.json.gz`));
    writeFileSync(at('kept.txt'), 'kept');
    await runtime.command({
      type: 'rollback.toCodon',
      data: { codonId: 'summarize', checkpointType: 'completed' },
    });
    expect(lastDebris()).toBeUndefined();
    expect(readFileSync(at('kept.txt'), 'utf8')).toBe('kept');
    const log = readFileSync(join(executionDir, '.hankweave/logs/server.log'), 'utf8');
    expect(log).toContain(`no listing was recorded with checkpoint ${sha.slice(0, 7)}`);
  });
});
