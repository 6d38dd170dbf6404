import { type ChildProcess, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { isPidAlive } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_RUN_ENV, reapOrphanAgents } from './reap-orphan-agents.js';

// Real processes stand in for agents a SIGKILLed runtime left behind: each runs in its own process
// group, as AgentProcess spawns agents, with a child of its own (a tool's shell command).

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {}
  }
});

function startAgent(env: Record<string, string>): { pid: number; toolPid: Promise<number> } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const c = require('node:child_process').spawn('sleep', ['60']); console.log(c.pid); setInterval(() => {}, 1000);",
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...env } },
  );
  started.push(child);
  const toolPid = new Promise<number>((resolve) =>
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  return { pid: child.pid as number, toolPid };
}

const stateWith = (runId: string, claudePid: number, status = 'running'): HankweaveState =>
  ({
    runs: [
      {
        runId,
        runFolder: `runs/${runId}`,
        gitBranch: `run-${runId}`,
        startingConditions: { type: 'fresh' },
        status,
        startTime: '2026-11-25T06:00:00.000Z',
        serverPid: 999_999,
        codons: [
          {
            codonId: 'summarize',
            status: 'running',
            startTime: '2026-11-25T06:00:01.000Z',
            claudePid,
            claudeLogPath: 'x.log',
            claudeSessionId: 's',
            currentCost: 0,
            currentTokens: {},
            assistantMessageCount: 1,
            sentinels: { loaded: [], totalCost: 0 },
          },
        ],
      },
    ],
    currentRunId: null,
    executionPlan: [],
  }) as unknown as HankweaveState;

const warnings: string[] = [];
const log = {
  info: () => undefined,
  warn: (message: string) => warnings.push(message),
  error: () => undefined,
  debug: () => undefined,
} as never;

const waitGone = async (pid: number): Promise<boolean> => {
  for (let i = 0; i < 40 && isPidAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !isPidAlive(pid);
};

describe.skipIf(process.platform !== 'linux')('reapOrphanAgents()', () => {
  it("stops a crashed run's agent and its tool processes (the whole group)", async () => {
    const agent = startAgent({ [AGENT_RUN_ENV]: 'run-a' });
    const toolPid = await agent.toolPid;
    const reaped = await reapOrphanAgents(stateWith('run-a', agent.pid), {
      previous: { reason: 'dead', lock: undefined },
      log,
      graceMs: 500,
    });
    expect(reaped).toEqual([agent.pid]);
    expect(await waitGone(agent.pid)).toBe(true);
    expect(await waitGone(toolPid)).toBe(true);
    expect(warnings.at(-1)).toMatch(/codon summarize .*outlived its runtime \(run run-a\)/);
  });

  it('leaves a live pid alone unless it carries the mark of that run (pids are reused)', async () => {
    const other = startAgent({ [AGENT_RUN_ENV]: 'run-other' });
    const unmarked = startAgent({});
    await Promise.all([other.toolPid, unmarked.toolPid]);
    for (const pid of [other.pid, unmarked.pid]) {
      const reaped = await reapOrphanAgents(stateWith('run-a', pid), {
        previous: undefined,
        log,
        graceMs: 100,
      });
      expect(reaped).toEqual([]);
      expect(isPidAlive(pid)).toBe(true);
    }
  });

  it("does not reach for a pid of another machine's lock, nor of a run that ended", async () => {
    const agent = startAgent({ [AGENT_RUN_ENV]: 'run-a' });
    await agent.toolPid;
    const elsewhere = {
      reason: 'stale' as const,
      lock: {
        pid: 1,
        runId: 'run-a',
        startTime: 'x',
        lastHeartbeat: 'x',
        hostname: `${hostname()}-not`,
      },
    };
    expect(
      await reapOrphanAgents(stateWith('run-a', agent.pid), {
        previous: elsewhere,
        log,
        graceMs: 100,
      }),
    ).toEqual([]);
    expect(
      await reapOrphanAgents(stateWith('run-a', agent.pid, 'crashed'), {
        previous: undefined,
        log,
        graceMs: 100,
      }),
    ).toEqual([]);
    expect(isPidAlive(agent.pid)).toBe(true);
  });
});
