import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent-event.js';
import type { AgentStartOptions } from '../agent-harness.js';
import { detectSandbox } from '../sandbox/detect-sandbox.js';
import {
  type AgentOutputTranslator,
  ProcessSession,
  type ProcessSessionSpec,
} from './process-session.js';

// The kit's session on a real process: node running a few lines of script as the "agent", which
// prints Claude-format lines (or another format the test translates). No model, no agent binary.

afterEach(cleanupTempDirs);

const init = { type: 'system', subtype: 'init', session_id: 's1' };
const success = { type: 'result', subtype: 'success', is_error: false, result: 'Done.' };

/** A script that does `before` (JavaScript), prints `lines` (JSON) and then does `then`. */
function agentScript(lines: object[], then = '', before = ''): string {
  const prints = lines.map((line) => `console.log(${JSON.stringify(JSON.stringify(line))});`);
  return [before, ...prints, then].join('\n');
}

// Traps SIGTERM before it prints anything (the test stops it once a line is logged): prints a last
// line when asked to stop, as Claude Code logs its stopped tool, then exits 143.
const TRAP = `
process.on('SIGTERM', () => {
  console.log(JSON.stringify({ type: 'user', session_id: 's1', message: { role: 'user', content: [] } }));
  process.exit(143);
});`;
const HANG = 'setInterval(() => {}, 1000);';

async function spec(
  script: string,
  overrides: Partial<ProcessSessionSpec> = {},
  options: Partial<AgentStartOptions> = {},
): Promise<ProcessSessionSpec> {
  const dir = (await makeTempDir('hw-process-session-')).path;
  return {
    options: {
      codonId: 'c#0',
      runId: 'run-1',
      model: 'claude-sonnet-4-5',
      prompt: 'ignored',
      cwd: dir,
      logPath: join(dir, 'runs', 'c#0-claude.log'),
      ...options,
    },
    command: process.execPath,
    args: ['-e', script],
    env: { PATH: process.env.PATH ?? '' },
    killGraceMs: 2000,
    ...overrides,
  };
}

async function logLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Resolves once the log has a line of `type`. */
async function untilLogged(path: string, type: string): Promise<void> {
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.includes(`"type":"${type}"`)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ProcessSession', () => {
  it('writes what the agent prints to the log, parses it and reports a success', async () => {
    const input = await spec(agentScript([init, success]));
    const session = await ProcessSession.start(input);
    expect(session.pid).toBeGreaterThan(0);
    const events = await collect(session.events);
    const outcome = await session.outcome;
    expect(events.map((event) => event.type)).toEqual(['session.started', 'result', 'token.usage']);
    expect(outcome).toMatchObject({ exitCode: 0, resultReceived: true, killed: false });
    expect(outcome.failureReason).toBeUndefined();
    const lines = await logLines(input.options.logPath);
    expect(lines.map((line) => line.type)).toEqual(['system', 'result']);
    expect(lines.every((line) => typeof line.timestamp === 'string')).toBe(true);
  });

  it('notes a kill once, before the agent stops, and keeps what it prints while stopping', async () => {
    const input = await spec(agentScript([init], HANG, TRAP));
    const session = await ProcessSession.start(input);
    await untilLogged(input.options.logPath, 'system');
    await session.kill('budget');
    await session.kill('again');
    const outcome = await session.outcome;
    expect(outcome).toMatchObject({
      killed: true,
      timedOut: false,
      exitCode: 143,
      signal: 'SIGTERM',
      resultReceived: false,
    });
    expect(outcome.failureReason).toBeUndefined();
    const lines = await logLines(input.options.logPath);
    expect(lines.map((line) => [line.type, line.subtype, line.reason])).toEqual([
      ['system', 'init', undefined],
      ['harness', 'killed', 'budget'],
      ['user', undefined, undefined],
    ]);
  });

  it('adds nothing to the log for a kill after the agent has exited', async () => {
    const input = await spec(agentScript([init, success]));
    const session = await ProcessSession.start(input);
    const before = await session.outcome;
    await session.kill('late');
    expect(before.killed).toBe(false);
    const lines = await logLines(input.options.logPath);
    expect(lines.some((line) => line.type === 'harness')).toBe(false);
  });

  it('kills the agent when the start signal aborts, with reason aborted', async () => {
    const controller = new AbortController();
    const input = await spec(
      agentScript([init], HANG),
      {},
      {
        signal: controller.signal,
      },
    );
    const session = await ProcessSession.start(input);
    controller.abort();
    const outcome = await session.outcome;
    expect(outcome).toMatchObject({ killed: true, signal: 'SIGTERM' });
    const lines = await logLines(input.options.logPath);
    expect(lines).toContainEqual(expect.objectContaining({ type: 'harness', reason: 'aborted' }));
  });

  it("stops a silent agent after the idle time with the watchdog's result: a retriable timeout", async () => {
    // 1.5 s: the idle time also runs while the child node process starts, which took over 300 ms
    // on a loaded CI machine (before its init line, so the result had no session id).
    const input = await spec(
      agentScript([init], HANG),
      {},
      {
        idleTimeoutMs: 1500,
      },
    );
    const session = await ProcessSession.start(input);
    const outcome = await session.outcome;
    expect(outcome).toMatchObject({
      timedOut: true,
      killed: false,
      signal: 'SIGTERM',
      resultReceived: true,
      failureReason: { type: 'timeout', retriable: true },
    });
    const lines = await logLines(input.options.logPath);
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      is_error: true,
      result: 'Agent idle timeout: no output for 1.5 s; the harness stopped the agent.',
      session_id: 's1',
    });
  });

  it('gives the silence the allowance asks for, and the adapter default idle time', async () => {
    // Silent for 1.5 s after a "busy" line, then done: within the allowance of 4 s, though the
    // default idle time (1 s) is shorter. The default also covers the agent's start before its
    // first line: a loaded CI machine once took over 300 ms to start the node process.
    const busy = { type: 'busy' };
    const script = `${agentScript([busy])}\nsetTimeout(() => console.log(${JSON.stringify(JSON.stringify(init))}), 1500);\nsetTimeout(() => console.log(${JSON.stringify(JSON.stringify(success))}), 1550);`;
    let busyNow = false;
    const input = await spec(script, {
      defaultIdleTimeoutMs: 1000,
      idleAllowance: (idleMs) => () => (busyNow ? 4000 : idleMs),
      translate: (log): AgentOutputTranslator => ({
        push(line) {
          if (line.includes('"busy"')) busyNow = true;
          else log.stdout(line);
        },
      }),
    });
    const outcome = await (await ProcessSession.start(input)).outcome;
    expect(outcome).toMatchObject({ timedOut: false, exitCode: 0, resultReceived: true });
  });

  it("translates the agent's lines, finishes the translation and cleans up before the outcome", async () => {
    const order: string[] = [];
    const input = await spec('console.log("hello"); console.log("not json {");', {
      translate: (log): AgentOutputTranslator => ({
        push(line) {
          if (line === 'hello') log.stdout(JSON.stringify(init));
          else log.stderr(line);
        },
        finish() {
          order.push('finish');
          log.stdout(JSON.stringify(success));
        },
      }),
      cleanup: async () => {
        order.push('cleanup');
      },
    });
    const outcome = await (await ProcessSession.start(input)).outcome;
    order.push('outcome');
    expect(order).toEqual(['finish', 'cleanup', 'outcome']);
    expect(outcome).toMatchObject({ sessionId: 's1', resultReceived: true, exitCode: 0 });
    const lines = await logLines(input.options.logPath);
    expect(lines.map((line) => line.type)).toEqual(['system', 'stderr', 'result']);
  });

  it('reports exit 1 for an agent that exits 0 after an error result', async () => {
    const failure = { type: 'result', subtype: 'error', is_error: true, result: '500 boom' };
    const outcome = await (await ProcessSession.start(await spec(agentScript([init, failure]))))
      .outcome;
    expect(outcome).toMatchObject({ exitCode: 1, failureReason: { type: 'api-error' } });
  });

  it("stops the agent on its own API timeout, recorded by the agent's line alone", async () => {
    const timeout = {
      type: 'assistant',
      message: {
        id: 'm1',
        model: '<synthetic>',
        content: [{ type: 'text', text: 'API Error: Request timed out.' }],
      },
    };
    const input = await spec(agentScript([init, timeout], HANG));
    const outcome = await (await ProcessSession.start(input)).outcome;
    expect(outcome).toMatchObject({
      timedOut: true,
      killed: false,
      signal: 'SIGTERM',
      failureReason: { type: 'timeout', retriable: true },
    });
    const lines = await logLines(input.options.logPath);
    expect(lines.map((line) => line.type)).toEqual(['system', 'assistant']);
  });

  it('throws HARNESS_SPAWN_FAILED when the agent cannot start, and closes the log', async () => {
    const input = await spec('', { command: '/nonexistent/agent', label: 'the agent' });
    await expect(ProcessSession.start(input)).rejects.toMatchObject({
      code: 'HARNESS_SPAWN_FAILED',
      message: expect.stringContaining('Cannot start the agent'),
    });
  });

  it('runs the agent in the sandbox, whose pid is bubblewrap, and stops it there', async () => {
    const found = await detectSandbox();
    if (!found.available) throw new Error(`No sandbox: ${found.reason}; ${found.hint}`);
    const base = await spec(agentScript([init], HANG, TRAP));
    const cwd = base.options.cwd;
    const input: ProcessSessionSpec = {
      ...base,
      sandbox: { bubblewrap: found.path, writable: [cwd] },
    };
    const session = await ProcessSession.start(input);
    await untilLogged(input.options.logPath, 'system');
    await session.kill('test');
    const outcome = await session.outcome;
    // The agent inside got the SIGTERM and wrote its last line: the grace was not needed.
    expect(outcome).toMatchObject({ killed: true, signal: 'SIGTERM' });
    const lines = await logLines(input.options.logPath);
    expect(lines.map((line) => line.type)).toEqual(['system', 'harness', 'user']);
  });
});
