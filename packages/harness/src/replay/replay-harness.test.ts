import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { createModelCatalog } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent-event.js';
import type { AgentStartOptions } from '../agent-harness.js';
import { AgentLogParser } from '../parser/agent-log-parser.js';
import { computeReplayDelays, resolveReplayPacing } from './replay-delays.js';
import { ReplayHarness } from './replay-harness.js';

const LOGS = fileURLToPath(new URL('../../test/fixtures/agent-logs/', import.meta.url));

async function startOptions(
  overrides: Partial<AgentStartOptions> = {},
): Promise<AgentStartOptions> {
  const dir = (await makeTempDir('hw-replay-')).path;
  return {
    codonId: 'c#0',
    runId: 'replay-run',
    model: 'claude-sonnet-4-5',
    prompt: 'ignored',
    cwd: dir,
    logPath: join(dir, 'runs', 'replay-run', 'c#0-claude.log'),
    ...overrides,
  };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

afterEach(cleanupTempDirs);

describe('ReplayHarness', () => {
  it('writes the same log and produces the same events and outcome as the recording', async () => {
    const recording = `${LOGS}tool-calls.log`;
    const harness = new ReplayHarness({ recording, minDelayMs: 0, maxDelayMs: 5 });
    const options = await startOptions();
    const session = await harness.start(options);
    expect(session.pid).toBeGreaterThanOrEqual(900_000);
    const events = await collect(session.events);
    const outcome = await session.outcome;

    const recorded = await readFile(recording, 'utf8');
    expect(await readFile(options.logPath, 'utf8')).toBe(recorded);
    const parser = new AgentLogParser({ codonId: 'c#0', model: 'claude-sonnet-4-5' });
    const expected = recorded.split('\n').flatMap((line) => parser.push(line));
    expect(events).toEqual([...expected, ...parser.finish()]);
    expect(outcome).toMatchObject({
      exitCode: 0,
      resultReceived: true,
      killed: false,
      timedOut: false,
      assistantMessageCount: 2,
    });
    expect(outcome.failureReason).toBeUndefined();
  });

  it('prices the replayed usage with the models option', async () => {
    const harness = new ReplayHarness({
      recording: `${LOGS}tool-calls.log`,
      maxDelayMs: 0,
      models: createModelCatalog([]),
    });
    const session = await harness.start(await startOptions());
    const warnings = (await collect(session.events)).filter((event) => event.type === 'warning');
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining('No price for model') });
  });

  it('reproduces a timed-out attempt from its log', async () => {
    const harness = new ReplayHarness({
      recording: `${LOGS}idle-timeout.log`,
      minDelayMs: 0,
      maxDelayMs: 0,
    });
    const outcome = await (await harness.start(await startOptions())).outcome;
    expect(outcome).toMatchObject({
      exitCode: 1,
      timedOut: true,
      failureReason: { type: 'timeout', retriable: true },
    });
  });

  it('replays a killed attempt as killed, from the harness note in its log', async () => {
    const harness = new ReplayHarness({ recording: `${LOGS}killed-mid-tool.log`, maxDelayMs: 0 });
    const outcome = await (await harness.start(await startOptions())).outcome;
    expect(outcome).toMatchObject({
      killed: true,
      exitCode: null,
      signal: 'SIGTERM',
      resultReceived: false,
    });
    expect(outcome.failureReason).toBeUndefined();
  });

  it('asks a function for the recording of each start', async () => {
    const seen: string[] = [];
    const harness = new ReplayHarness({
      recording: (options) => {
        seen.push(options.codonId);
        return `${LOGS}rate-limit-429.log`;
      },
      maxDelayMs: 0,
    });
    const outcome = await (await harness.start(await startOptions({ codonId: 'x#3' }))).outcome;
    expect(seen).toEqual(['x#3']);
    expect(outcome.failureReason).toMatchObject({ type: 'rate-limit', retryAfterMs: 7000 });
  });

  it('stops on kill(): the outcome says killed and the log holds what was fed', async () => {
    const harness = new ReplayHarness({
      recording: `${LOGS}tool-calls.log`,
      minDelayMs: 200,
      maxDelayMs: 200,
    });
    const options = await startOptions();
    const session = await harness.start(options);
    for await (const event of session.events) if (event.type === 'session.started') break;
    await session.kill();
    const outcome = await session.outcome;
    expect(outcome).toMatchObject({
      killed: true,
      exitCode: null,
      signal: 'SIGTERM',
      resultReceived: false,
    });
    expect(outcome.failureReason).toBeUndefined();
    const written = (await readFile(options.logPath, 'utf8')).split('\n').filter(Boolean);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(12);
  });

  it('stops when the start signal aborts', async () => {
    const controller = new AbortController();
    const harness = new ReplayHarness({
      recording: `${LOGS}tool-calls.log`,
      minDelayMs: 200,
      maxDelayMs: 200,
    });
    const session = await harness.start(await startOptions({ signal: controller.signal }));
    controller.abort();
    expect((await session.outcome).killed).toBe(true);
  });

  it('fails with HARNESS_LOG_NOT_FOUND when there is no recording', async () => {
    const harness = new ReplayHarness({ recording: '/nonexistent/c#0-claude.log' });
    await expect(harness.start(await startOptions())).rejects.toMatchObject({
      code: 'HARNESS_LOG_NOT_FOUND',
    });
  });
});

describe('computeReplayDelays()', () => {
  const at = (iso: string) => JSON.stringify({ type: 'x', timestamp: iso });

  it('waits the recorded gaps, scaled by speed and clamped', () => {
    const lines = [
      at('2026-01-01T00:00:00.000Z'),
      at('2026-01-01T00:00:00.400Z'),
      '{"type":"no-timestamp"}',
      at('2026-01-01T00:00:10.400Z'),
      at('2026-01-01T00:00:10.401Z'),
    ];
    expect(computeReplayDelays(lines, { speed: 1, minDelayMs: 5, maxDelayMs: 1000 })).toEqual([
      0, 400, 5, 1000, 5,
    ]);
    expect(computeReplayDelays(lines, { speed: 2, minDelayMs: 0, maxDelayMs: 100_000 })).toEqual([
      0, 200, 0, 5000, 0.5,
    ]);
  });
});

describe('resolveReplayPacing()', () => {
  it('takes options first, then HANKWEAVE_REPLAY_* variables, then defaults', () => {
    const env = { HANKWEAVE_REPLAY_MAX_DELAY_MS: '250', HANKWEAVE_REPLAY_SPEED_MS: '2' };
    expect(resolveReplayPacing({}, env)).toEqual({ speed: 1, maxDelayMs: 250, minDelayMs: 2 });
    expect(resolveReplayPacing({ maxDelayMs: 10, minDelayMs: 1, speed: 4 }, env)).toEqual({
      speed: 4,
      maxDelayMs: 10,
      minDelayMs: 1,
    });
    expect(resolveReplayPacing({}, {})).toEqual({ speed: 1, maxDelayMs: 1000, minDelayMs: 5 });
    expect(resolveReplayPacing({}, { HANKWEAVE_REPLAY_MAX_DELAY_MS: 'fast' })).toMatchObject({
      maxDelayMs: 1000,
    });
  });
});
