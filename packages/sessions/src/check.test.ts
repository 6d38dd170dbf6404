import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSessions, isProcessAlive, STALE_THRESHOLDS_MS } from './check.js';
import { sessionLayout } from './layout.js';
import { type SessionEntry, SessionRegistry } from './registry.js';

const HOUR = 3_600_000;
const now = new Date('2025-02-01T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * HOUR).toISOString();
const running = (fields: Partial<SessionEntry> = {}): SessionEntry => ({
  type: 'loop',
  started_at: hoursAgo(0.5),
  project_path: '/p',
  status: 'running',
  ...fields,
});

let dir: TempDir;
let registry: SessionRegistry;
beforeEach(async () => {
  dir = await makeTempDir('sessions-check-');
  registry = new SessionRegistry(dir.path);
});
afterEach(() => dir.cleanup());

describe('STALE_THRESHOLDS_MS', () => {
  it("is the seed's 2 h, 4 h and 8 h", () => {
    expect(STALE_THRESHOLDS_MS).toEqual({ warn: 2 * HOUR, suggestKill: 4 * HOUR, kill: 8 * HOUR });
  });
});

describe('checkSessions()', () => {
  it('finds nothing in an empty project', async () => {
    expect(await checkSessions(dir.path, { now })).toEqual({
      orphans: [],
      zombies: [],
      stale: [],
      staleLocks: [],
    });
  });

  it('reports loop states and pipeline runs without a registry entry', async () => {
    const layout = sessionLayout(dir.path);
    await registry.register('loop-known', running());
    await registry.register('pipeline-known', running({ type: 'pipeline' }));
    await mkdir(layout.claudeDir, { recursive: true });
    await writeFile(layout.loopStateFile('known'), '{}');
    await writeFile(layout.loopStateFile('lost'), '{}');
    await mkdir(layout.pipelineDir('known'), { recursive: true });
    await mkdir(layout.pipelineDir('gone'), { recursive: true });
    const { orphans } = await checkSessions(dir.path, { now });
    expect(orphans).toEqual([
      { file: layout.loopStateFile('lost'), session: 'lost', kind: 'loop-state' },
      { file: layout.pipelineDir('gone'), session: 'gone', kind: 'pipeline-run' },
    ]);
  });

  it('counts an entry that fails the schema as present', async () => {
    const layout = sessionLayout(dir.path);
    await mkdir(layout.claudeDir, { recursive: true });
    await writeFile(
      layout.registryFile,
      JSON.stringify({ sessions: { 'loop-odd': { status: 1 } } }),
    );
    await writeFile(layout.loopStateFile('odd'), '{}');
    expect((await checkSessions(dir.path, { now })).orphans).toEqual([]);
  });

  it('reports running entries whose process on this host is gone as zombies', async () => {
    await registry.register('loop-dead', running({ pid: 111 }));
    await registry.register('loop-dead-here', running({ pid: 112, hostname: hostname() }));
    await registry.register('loop-alive', running({ pid: 222 }));
    await registry.register('loop-elsewhere', running({ pid: 333, hostname: 'another-host' }));
    await registry.register('loop-finished', running({ pid: 444, status: 'completed' }));
    const { zombies } = await checkSessions(dir.path, { now, isAlive: (pid) => pid === 222 });
    expect(zombies).toEqual([
      { key: 'loop-dead', pid: 111 },
      { key: 'loop-dead-here', pid: 112 },
    ]);
  });

  it('grades long-running sessions by the thresholds, zombies excluded', async () => {
    await registry.register('loop-fresh', running({ started_at: hoursAgo(1) }));
    await registry.register('loop-warn', running({ started_at: hoursAgo(3) }));
    await registry.register('loop-suggest', running({ started_at: hoursAgo(5), pid: 222 }));
    await registry.register('loop-kill', running({ started_at: hoursAgo(9) }));
    await registry.register('loop-zombie', running({ started_at: hoursAgo(9), pid: 111 }));
    await registry.register('loop-bad-time', running({ started_at: 'a while ago' }));
    const { stale } = await checkSessions(dir.path, { now, isAlive: (pid) => pid === 222 });
    expect(stale).toEqual([
      { key: 'loop-warn', runningForMs: 3 * HOUR, level: 'warn' },
      { key: 'loop-suggest', runningForMs: 5 * HOUR, level: 'suggest-kill' },
      { key: 'loop-kill', runningForMs: 9 * HOUR, level: 'kill' },
    ]);
  });

  it('reports lock directories older than lockStaleMs', async () => {
    const layout = sessionLayout(dir.path);
    await mkdir(layout.registryLockFile, { recursive: true });
    await mkdir(layout.completionsLockFile, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await utimes(layout.registryLockFile, old, old);
    const { staleLocks } = await checkSessions(dir.path, { lockStaleMs: 10_000 });
    expect(staleLocks.map((lock) => lock.file)).toEqual([layout.registryLockFile]);
    expect(staleLocks[0]?.ageMs).toBeGreaterThanOrEqual(60_000);
  });

  it('throws SESSIONS_CORRUPT_FILE when the registry is unparseable', async () => {
    const layout = sessionLayout(dir.path);
    await mkdir(layout.claudeDir, { recursive: true });
    await writeFile(layout.registryFile, '{');
    await expect(checkSessions(dir.path)).rejects.toMatchObject({ code: 'SESSIONS_CORRUPT_FILE' });
  });
});

describe('isProcessAlive()', () => {
  it('is true for this process and false for a pid that cannot exist', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(2 ** 30)).toBe(false);
  });

  it('is false for pids that address process groups or are not integers', () => {
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
    expect(isProcessAlive(1.5)).toBe(false);
  });
});
