import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeFixture } from '../test/helpers/fixtures.js';
import { sessionLayout } from './layout.js';
import { type SessionEntry, SessionRegistry } from './registry.js';

const FIXED = new Date('2025-02-01T12:34:56.789Z');
const clock = () => FIXED;

const loopEntry = (fields: Partial<SessionEntry> = {}): SessionEntry => ({
  type: 'loop',
  loop_type: 'work',
  started_at: '2025-01-10T10:00:00Z',
  project_path: '/path/to/project',
  max_iterations: 50,
  status: 'running',
  ...fields,
});

let dir: TempDir;
let registry: SessionRegistry;
beforeEach(async () => {
  dir = await makeTempDir('sessions-registry-');
  registry = new SessionRegistry(dir.path, { clock });
});
afterEach(() => dir.cleanup());

const readRaw = async () => JSON.parse(await readFile(registry.file, 'utf8'));

describe('SessionRegistry', () => {
  describe('read()', () => {
    it('is empty when neither the file nor .claude exists', async () => {
      expect(await registry.read()).toEqual({ sessions: {}, problems: [] });
    });

    it('is empty for an empty file (what touch leaves)', async () => {
      await mkdir(join(dir.path, '.claude'));
      await writeFile(registry.file, '\n');
      expect(await registry.read()).toEqual({ sessions: {}, problems: [] });
    });

    it("reads the seed's example without problems", async () => {
      await placeFixture(dir.path, 'seed/loop-sessions.json', '.claude/loop-sessions.json');
      const snapshot = await registry.read();
      expect(snapshot.problems).toEqual([]);
      expect(Object.keys(snapshot.sessions)).toEqual(['loop-feature-name', 'pipeline-refine']);
      expect(snapshot.sessions['loop-feature-name']).toMatchObject({
        type: 'loop',
        max_iterations: 50,
        killed_at: null,
      });
      expect(snapshot.sessions['pipeline-refine']).toMatchObject({
        pipeline_file: 'full-refine.yaml',
        status: 'running',
      });
    });

    it('reads nulls, extra fields and missing optionals, and reports a bad entry by key', async () => {
      await placeFixture(dir.path, 'tolerant/loop-sessions.json', '.claude/loop-sessions.json');
      const snapshot = await registry.read();
      expect(Object.keys(snapshot.sessions)).toEqual(['loop-nulls', 'pipeline-minimal', 'odd-key']);
      expect(snapshot.sessions['loop-nulls']).toMatchObject({
        max_iterations: null,
        tmux_session: 'loop-nulls',
        extra: { nested: [1, 2, 3] },
      });
      expect(snapshot.problems).toHaveLength(1);
      expect(snapshot.problems[0]?.key).toBe('loop-broken');
      expect(snapshot.problems[0]?.message).toContain('started_at');
    });

    it.each([
      ['not JSON', '{"sessions": {'],
      ['an array', '[]'],
      ['sessions as a number', '{"sessions": 5}'],
    ])('throws SESSIONS_CORRUPT_FILE naming the file for %s', async (_, text) => {
      await mkdir(join(dir.path, '.claude'));
      await writeFile(registry.file, text);
      const error = await registry.read().catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'SESSIONS_CORRUPT_FILE',
        details: { file: registry.file },
      });
    });
  });

  describe('register()', () => {
    it("writes the seed's shape: field order, nulls, 2-space JSON and a trailing newline", async () => {
      await registry.register('loop-myfeature', loopEntry({ pid: 42 }));
      const text = await readFile(registry.file, 'utf8');
      expect(text.endsWith('}\n')).toBe(true);
      expect(text).toBe(
        `${JSON.stringify(
          {
            sessions: {
              'loop-myfeature': {
                type: 'loop',
                loop_type: 'work',
                started_at: '2025-01-10T10:00:00Z',
                project_path: '/path/to/project',
                max_iterations: 50,
                status: 'running',
                killed_at: null,
                completed_at: null,
                note: null,
                pid: 42,
              },
            },
          },
          null,
          2,
        )}\n`,
      );
    });

    it('replaces an entry and keeps the others', async () => {
      await registry.register('loop-a', loopEntry());
      await registry.register('loop-b', loopEntry());
      await registry.register('loop-a', loopEntry({ status: 'completed' }));
      const { sessions } = await registry.read();
      expect(Object.keys(sessions)).toEqual(['loop-a', 'loop-b']);
      expect(sessions['loop-a']?.status).toBe('completed');
    });

    it('rejects an empty key with SESSIONS_INVALID_NAME', async () => {
      await expect(registry.register('', loopEntry())).rejects.toMatchObject({
        code: 'SESSIONS_INVALID_NAME',
      });
    });
  });

  describe('patch()', () => {
    it('merges fields, clears with null, ignores undefined and stamps updated_at', async () => {
      await registry.register('loop-a', loopEntry({ note: 'first', hank_name: 'h' }));
      const entry = await registry.patch('loop-a', { note: null, pid: 7, hank_name: undefined });
      expect(entry).toMatchObject({
        note: null,
        pid: 7,
        hank_name: 'h',
        updated_at: '2025-02-01T12:34:56Z',
      });
      expect((await readRaw()).sessions['loop-a']).toEqual(entry);
    });

    it('returns undefined and writes nothing when the key is absent', async () => {
      expect(await registry.patch('loop-none', { note: 'x' })).toBeUndefined();
      await expect(stat(registry.file)).rejects.toMatchObject({ code: 'ENOENT' });
      await registry.register('loop-a', loopEntry());
      const before = await stat(registry.file);
      expect(await registry.patch('loop-none', { note: 'x' })).toBeUndefined();
      expect((await stat(registry.file)).ino).toBe(before.ino);
    });

    it('keeps unknown fields, invalid entries and top-level extras on rewrite', async () => {
      await placeFixture(dir.path, 'tolerant/loop-sessions.json', '.claude/loop-sessions.json');
      const before = await readRaw();
      await registry.patch('odd-key', { note: 'touched' });
      const after = await readRaw();
      expect(after.version).toBe(2);
      expect(after.sessions['loop-broken']).toEqual(before.sessions['loop-broken']);
      expect(after.sessions['loop-nulls']).toEqual(before.sessions['loop-nulls']);
      expect(after.sessions['odd-key']).toMatchObject({
        note: 'touched',
        completed_at: '2025-01-12T10:00:00Z',
      });
    });
  });

  describe('setStatus()', () => {
    it("sets completed_at with 'completed', at the clock's second", async () => {
      await registry.register('loop-a', loopEntry());
      const entry = await registry.setStatus('loop-a', 'completed');
      expect(entry).toMatchObject({
        status: 'completed',
        completed_at: '2025-02-01T12:34:56Z',
        killed_at: null,
      });
    });

    it("sets killed_at with 'killed' at the time given, and replaces the note", async () => {
      await registry.register('loop-a', loopEntry({ note: 'old' }));
      const entry = await registry.setStatus('loop-a', 'killed', {
        at: new Date('2025-03-01T00:00:00Z'),
        note: 'hankweave kill',
      });
      expect(entry).toMatchObject({
        status: 'killed',
        killed_at: '2025-03-01T00:00:00Z',
        note: 'hankweave kill',
      });
    });

    it("clears killed_at and completed_at with 'running'; a null note clears the note", async () => {
      await registry.register('loop-a', loopEntry({ note: 'x' }));
      await registry.setStatus('loop-a', 'killed');
      const entry = await registry.setStatus('loop-a', 'running', { note: null });
      expect(entry).toMatchObject({
        status: 'running',
        killed_at: null,
        completed_at: null,
        note: null,
      });
    });

    it("keeps the note when none is given ('unknown_termination')", async () => {
      await registry.register('loop-a', loopEntry({ note: 'kept' }));
      const entry = await registry.setStatus('loop-a', 'unknown_termination');
      expect(entry).toMatchObject({ status: 'unknown_termination', note: 'kept' });
    });

    it('returns undefined for an absent key', async () => {
      expect(await registry.setStatus('loop-none', 'killed')).toBeUndefined();
    });
  });

  describe('remove()', () => {
    it('removes the keys and returns those that were there', async () => {
      await registry.register('loop-a', loopEntry());
      await registry.register('loop-b', loopEntry());
      expect(await registry.remove(['loop-a', 'loop-x', 'loop-a'])).toEqual(['loop-a']);
      expect(Object.keys((await registry.read()).sessions)).toEqual(['loop-b']);
    });
  });

  describe('update()', () => {
    it('moves an unparseable registry aside with a warning and starts from empty', async () => {
      const warnings: string[] = [];
      registry = new SessionRegistry(dir.path, { onWarning: (message) => warnings.push(message) });
      await mkdir(join(dir.path, '.claude'));
      await writeFile(registry.file, '{"sessions": {"loop-a": ');
      await registry.register('loop-b', loopEntry());
      expect(Object.keys((await registry.read()).sessions)).toEqual(['loop-b']);
      const names = await readdir(join(dir.path, '.claude'));
      const aside = names.find((name) => name.startsWith('loop-sessions.json.corrupt-'));
      expect(aside).toBeDefined();
      expect(await readFile(join(dir.path, '.claude', aside ?? ''), 'utf8')).toBe(
        '{"sessions": {"loop-a": ',
      );
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(aside);
    });

    it('writes nothing and releases the lock when the mutator throws', async () => {
      await registry.register('loop-a', loopEntry());
      const failing = registry.update((sessions) => {
        delete sessions['loop-a'];
        throw new Error('mutator failed');
      });
      await expect(failing).rejects.toThrow('mutator failed');
      expect(Object.keys((await registry.read()).sessions)).toEqual(['loop-a']);
      await registry.register('loop-b', loopEntry());
      await expect(stat(sessionLayout(dir.path).registryLockFile)).rejects.toMatchObject({
        code: 'ENOENT',
      });
    });

    it('throws SESSIONS_LOCK_TIMEOUT while another holder keeps a fresh lock', async () => {
      await mkdir(sessionLayout(dir.path).registryLockFile, { recursive: true });
      registry = new SessionRegistry(dir.path, { lockTimeoutMs: 150 });
      await expect(registry.register('loop-a', loopEntry())).rejects.toMatchObject({
        code: 'SESSIONS_LOCK_TIMEOUT',
        details: { file: sessionLayout(dir.path).registryLockFile },
      });
    });

    it('removes temp files a killed writer left beside the registry', async () => {
      await registry.register('loop-a', loopEntry());
      const leftover = join(dir.path, '.claude', 'loop-sessions.json.0123456789ab.tmp');
      const unrelated = join(dir.path, '.claude', 'loop-state-x.json.0123456789ab.tmp');
      await writeFile(leftover, '{"sessions"');
      await writeFile(unrelated, '{}');
      await registry.register('loop-b', loopEntry());
      expect((await readdir(join(dir.path, '.claude'))).sort()).toEqual([
        'loop-sessions.json',
        'loop-state-x.json.0123456789ab.tmp',
      ]);
    });

    it('loses no entry when many updates of two instances run at once', async () => {
      const other = new SessionRegistry(dir.path);
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          (index % 2 ? registry : other).register(`loop-${index}`, loopEntry()),
        ),
      );
      expect(Object.keys((await registry.read()).sessions)).toHaveLength(30);
    });

    it('throws SESSIONS_IO and leaves the registry as it was when the write fails', async () => {
      await registry.register('loop-a', loopEntry());
      const fs = createFaultyFs({
        failAt: 'rename',
        pathIncludes: 'loop-sessions.json',
        code: 'ENOSPC',
      });
      const failing = new SessionRegistry(dir.path, { fs });
      await expect(failing.register('loop-b', loopEntry())).rejects.toMatchObject({
        code: 'SESSIONS_IO',
        details: { file: registry.file },
      });
      expect(Object.keys((await registry.read()).sessions)).toEqual(['loop-a']);
      expect(await readdir(join(dir.path, '.claude'))).toEqual(['loop-sessions.json']);
    });
  });
});
