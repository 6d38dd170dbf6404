import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { countInotifyWatches } from '@hankweave/files/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// The example hank run twice on the real Claude Code and the scripted model, at once: once with
// agentRoot's scans fed by file events from the first scan (`fileWatch.minFiles: 0`), once
// walking. What the runtime reports about files must not depend on how it found out.

interface Run {
  world: TestWorld;
  events: HankweaveEvent[];
  executionDir: string;
  exitCode: number;
}

async function runOnce(fileWatch: {
  enabled?: boolean;
  minFiles?: number;
  settleTimeoutMs?: number;
}): Promise<Run> {
  const world = await makeWorld();
  const { runtime, events } = runtimeFor(world, { fileWatch });
  await runtime.start();
  const { exitCode } = await runtime.finished;
  return { world, events, executionDir: runtime.executionDir, exitCode };
}

/** What a reader learns from the file events: who changed which file how, and its content. */
const fileReports = (events: HankweaveEvent[]) =>
  events.flatMap((event) =>
    event.type === 'file.updated'
      ? [
          [
            event.data.codonId,
            event.data.path,
            event.data.action,
            event.data.source?.kind,
            event.data.content,
          ],
        ]
      : [],
  );

describe('agentRoot scans from file events (fileWatch)', () => {
  let watched: Run;
  let walked: Run;
  let watchesBefore: number;

  beforeAll(async () => {
    watchesBefore = countInotifyWatches();
    // Two real agents on two cores: a settle marker can take longer than the 2 s default, and
    // the tests below count walks, so the watched run waits as long as the files tests do.
    [watched, walked] = await Promise.all([
      runOnce({ minFiles: 0, settleTimeoutMs: 15_000 }),
      runOnce({ enabled: false }),
    ]);
  }, 240_000);
  afterAll(async () => {
    await watched?.world.close();
    await walked?.world.close();
  });

  it('reports the same file changes as the walk, tool call by tool call', () => {
    expect(watched.exitCode).toBe(0);
    expect(walked.exitCode).toBe(0);
    const reports = fileReports(watched.events);
    expect(
      reports.some(
        ([, path, action, kind]) =>
          path === 'notes/observations.md' && action === 'created' && kind === 'tool_use',
      ),
    ).toBe(true);
    expect(reports).toEqual(fileReports(walked.events));
  });

  it('says it watches in one run only', () => {
    const log = (run: Run) =>
      readFileSync(join(run.executionDir, '.hankweave/logs/server.log'), 'utf8');
    expect(log(watched)).toMatch(/Watching agentRoot's file events: \d+ tracked files/);
    expect(log(walked)).not.toMatch(/Watching agentRoot/);
  });

  it('records the same checkpoint listings as the walk, the later ones from events', () => {
    const listings = (run: Run) =>
      run.events.flatMap((event) => {
        if (event.type !== 'state.transition') return [];
        if (event.data.transitionType !== 'CheckpointCreated') return [];
        const { sha, codonId, checkpointType } = event.data.transition.data as {
          sha: string;
          codonId: string;
          checkpointType: string;
        };
        const bytes = readFileSync(
          join(run.executionDir, '.hankweave/checkpoints/listings', `${sha}.json.gz`),
        );
        const { untracked, directories, ignoreFiles } = JSON.parse(
          gunzipSync(bytes).toString('utf8'),
        );
        return [{ checkpointType, codonId, untracked, directories, ignoreFiles }];
      });
    const recorded = listings(watched);
    expect(recorded.length).toBeGreaterThan(2);
    expect(recorded).toEqual(listings(walked));
    // The first listing of the watched run walks; every later one reads the file events.
    const log = readFileSync(join(watched.executionDir, '.hankweave/logs/server.log'), 'utf8');
    const walks = log.match(/Listing walked agentRoot: .*/g) ?? [];
    expect(walks).toEqual(['Listing walked agentRoot: the first listing walks']);
  });

  it('walks a scan only for the first one and when the tracked patterns grew', () => {
    const log = readFileSync(join(watched.executionDir, '.hankweave/logs/server.log'), 'utf8');
    const walks = log.match(/File scan walked agentRoot: .*/g) ?? [];
    const codonStarts = watched.events.filter(
      (event) => event.type === 'state.transition' && event.data.transitionType === 'CodonStarted',
    ).length;
    // Every walk is logged: the first, and one for a codon that tracks more; the other codons'
    // start scans (and every scan after a tool call) read the events.
    expect(walks.length).toBeGreaterThan(0);
    expect(walks.length).toBeLessThan(codonStarts);
    // The watcher's first take ("no changes were taken yet") is the first scan it feeds.
    for (const walk of walks) {
      expect(walk).toMatch(/no changes were taken yet|the first scan walks|patterns changed/);
    }
  });

  it('leaves no watch behind once the runs are over', () => {
    expect(countInotifyWatches()).toBe(watchesBefore);
  });
});
