import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from '@hankweave/durable-io';
import { type AgentEvent, AgentLogParser } from '@hankweave/harness';
import { describe, expect, it } from 'vitest';
import {
  maybeRecordFixture,
  NO_RETRIES,
  ofType,
  readLog,
  runToEnd,
  scriptedAgent,
} from '../test/helpers/scripted-agent.js';

// The real Claude Code against @hankweave/scripted-model over loopback. Every test has its own
// server, HOME, cwd and log, so they run concurrently.

describe.concurrent('ClaudeCodeHarness with the real agent', () => {
  it('writes a file through tool calls and reports every event once', async () => {
    const agent = await scriptedAgent({
      conversations: [
        {
          turns: [
            {
              fail: { kind: 'overloaded' },
              times: 1,
              content: [
                { thinking: 'Write the note, then check it.' },
                { text: 'Writing notes/hello.txt.' },
                { write: { path: 'notes/hello.txt', content: 'hello from the harness test\n' } },
                { bash: { command: 'cat notes/hello.txt', description: 'Check the note' } },
              ],
              usage: {
                inputTokens: 1200,
                outputTokens: 80,
                cacheReadInputTokens: 900,
                cacheCreationInputTokens: 100,
              },
            },
            { content: [{ text: 'Done.' }], usage: { inputTokens: 1500, outputTokens: 12 } },
          ],
        },
      ],
    });
    try {
      const options = agent.options({ appendSystemPrompt: 'HANKWEAVE_SYSTEM_APPEND' });
      const session = await agent.harness.start(options);
      expect(session.pid).toBeGreaterThan(0);
      const { events, outcome } = await runToEnd(session);
      await maybeRecordFixture(options.logPath, 'tool-calls');

      expect(await readFile(join(agent.cwd, 'notes/hello.txt'), 'utf8')).toBe(
        'hello from the harness test\n',
      );
      const [started] = ofType(events, 'session.started');
      expect(started).toMatchObject({ model: 'claude-sonnet-4-5', cwd: agent.cwd });
      expect(started?.claudeCodeVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(ofType(events, 'api.retry')[0]).toMatchObject({ attempt: 1, errorStatus: 529 });

      const actions = ofType(events, 'assistant.action').map((event) => event.data);
      expect(actions.map((action) => action.action)).toEqual([
        'thinking',
        'message',
        'tool_use',
        'tool_use',
        'message',
      ]);
      const write = actions.find((action) => action.toolName === 'Write');
      expect(write).toMatchObject({ codonId: 'codon#0', content: '' });
      expect(write?.toolInput).toMatchObject({ file_path: join(agent.cwd, 'notes/hello.txt') });
      const results = ofType(events, 'tool.result').map((event) => event.data);
      expect(results.map((result) => result.toolName)).toEqual(['Write', 'Bash']);
      expect(results[0]?.toolUseId).toBe(write?.toolUseId);
      expect(results[1]).toMatchObject({ isError: false, truncated: false });
      expect(results[1]?.result).toContain('hello from the harness test');

      // Three lines repeat the first message's id and usage: counted once.
      const deltas = ofType(events, 'token.usage').filter((event) => !event.final);
      const sum = (field: 'inputTokens' | 'outputTokens' | 'cacheReadTokens') =>
        deltas.reduce((total, event) => total + event.data[field], 0);
      expect([sum('inputTokens'), sum('outputTokens'), sum('cacheReadTokens')]).toEqual([
        2700, 92, 900,
      ]);
      expect(ofType(events, 'assistant.message.counted').map((event) => event.count)).toEqual([
        1, 2,
      ]);
      const expectedCost = (2700 * 3 + 92 * 15 + 100 * 3.75 + 900 * 0.3) / 1e6;
      const final = ofType(events, 'token.usage').find((event) => event.final);
      expect(final?.data.totalCost).toBeCloseTo(expectedCost, 9);
      expect(ofType(events, 'warning')).toEqual([]);
      expect(outcome).toMatchObject({
        exitCode: 0,
        resultReceived: true,
        contextExceeded: false,
        killed: false,
        timedOut: false,
        assistantMessageCount: 2,
        sessionId: started?.sessionId,
      });
      expect(outcome.failureReason).toBeUndefined();
      expect(outcome.finalCost).toBeCloseTo(expectedCost, 9);
      expect(outcome.finalTokens).toEqual({
        inputTokens: 2700,
        outputTokens: 92,
        cacheCreationTokens: 100,
        cacheReadTokens: 900,
      });

      // The system prompt append reached the API.
      const first = agent.model.requests.find((request) => request.kind === 'messages');
      expect(JSON.stringify(first?.body)).toContain('HANKWEAVE_SYSTEM_APPEND');

      // The log is the source of truth: stamped lines, and re-parsing it gives the same events.
      const lines = await readLog(options.logPath);
      expect(lines.every((line) => typeof line.timestamp === 'string')).toBe(true);
      const parser = new AgentLogParser({ codonId: 'codon#0', model: 'claude-sonnet-4-5' });
      const text = await readFile(options.logPath, 'utf8');
      const reparsed = text.split('\n').flatMap((line) => parser.push(line));
      expect([...reparsed, ...parser.finish()]).toEqual(events);
    } finally {
      await agent.dispose();
    }
  });

  it('resumes a previous session with its history', async () => {
    const agent = await scriptedAgent({
      conversations: [
        {
          turns: [
            { content: [{ text: 'first answer' }] },
            { content: [{ text: 'second answer' }] },
          ],
        },
      ],
    });
    try {
      const first = await runToEnd(
        await agent.harness.start(agent.options({ prompt: 'QUESTION_ONE' })),
      );
      expect(first.outcome.failureReason).toBeUndefined();
      const options = agent.options({
        prompt: 'QUESTION_TWO',
        resumeSessionId: first.outcome.sessionId as string,
      });
      const second = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'resume');

      expect(second.outcome).toMatchObject({ exitCode: 0, resultReceived: true });
      expect(ofType(second.events, 'assistant.action')[0]?.data.content).toBe('second answer');
      const last = agent.model.requests.filter((request) => request.kind === 'messages').at(-1);
      const history = JSON.stringify(last?.body);
      expect(history).toContain('QUESTION_ONE');
      expect(history).toContain('first answer');
      expect(history).toContain('QUESTION_TWO');
      // The agent's total_cost_usd covers the whole session; the outcome is this attempt's cost.
      const result = ofType(second.events, 'result')[0];
      expect(result?.totalCostUsd).toBeCloseTo(2 * 18e-6, 9);
      expect(second.outcome.finalCost).toBeCloseTo(18e-6, 9);
    } finally {
      await agent.dispose();
    }
  });

  it('kills the agent mid tool use; the log ends without a result', async () => {
    const agent = await scriptedAgent({
      conversations: [
        {
          turns: [
            {
              // Claude Code refuses a bare `sleep 30`; a node timer is a long-running tool too.
              content: [
                {
                  bash: {
                    command: 'touch tool-started && node -e "setTimeout(() => {}, 30000)"',
                    timeoutMs: 60_000,
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    try {
      const options = agent.options();
      const session = await agent.harness.start(options);
      for await (const event of session.events) {
        if (event.type === 'assistant.action' && event.data.action === 'tool_use') break;
      }
      // Kill once the tool really runs.
      const marker = join(agent.cwd, 'tool-started');
      while (!(await stat(marker).catch(() => undefined))) {
        await sleep(50);
      }
      await session.kill('test');
      const outcome = await session.outcome;
      await maybeRecordFixture(options.logPath, 'killed-mid-tool');
      expect(outcome).toMatchObject({ killed: true, resultReceived: false, signal: 'SIGTERM' });
      expect(outcome.failureReason).toBeUndefined();
      const lines = await readLog(options.logPath);
      expect(lines.some((line) => line.type === 'result')).toBe(false);
      // On SIGTERM Claude Code stops its tool and logs that result, then exits without a result.
      const events: AgentEvent[] = [];
      for await (const event of session.events) events.push(event);
      expect(ofType(events, 'tool.result').at(-1)?.data).toMatchObject({
        toolName: 'Bash',
        isError: true,
      });
    } finally {
      await agent.dispose();
    }
  });

  it('parses subagent lines and a success followed by an error result', async () => {
    const agent = await scriptedAgent(
      {
        conversations: [
          {
            name: 'main',
            match: { marker: 'MAIN_TASK' },
            turns: [
              {
                content: [
                  { text: 'Delegating.' },
                  {
                    tool: {
                      name: 'Task',
                      input: {
                        description: 'Sub job',
                        prompt: 'SUB_TASK: echo',
                        subagent_type: 'general-purpose',
                      },
                    },
                  },
                ],
                usage: { inputTokens: 10, outputTokens: 5 },
              },
              { content: [{ text: 'Main done' }], usage: { inputTokens: 20, outputTokens: 3 } },
            ],
          },
          {
            name: 'sub',
            match: { marker: 'SUB_TASK' },
            turns: [
              {
                content: [{ text: 'sub working' }, { bash: 'echo SUBOUT' }],
                usage: { inputTokens: 7, outputTokens: 2 },
              },
              { content: [{ text: 'sub finished' }], usage: { inputTokens: 8, outputTokens: 2 } },
            ],
          },
        ],
      },
      NO_RETRIES,
    );
    try {
      const options = agent.options({ prompt: 'MAIN_TASK please' });
      const { events, outcome } = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'subagent');
      const sub = ofType(events, 'assistant.action').filter((event) => event.data.parentToolUseId);
      expect(sub.length).toBeGreaterThan(0);
      expect(ofType(events, 'result')[0]).toMatchObject({ subtype: 'success', isError: false });
      // Only the main conversation's messages count.
      expect(outcome.assistantMessageCount).toBe(2);
      expect(outcome.failureReason).toBeUndefined();
      expect(outcome.errorResultText).toBeUndefined();
    } finally {
      await agent.dispose();
    }
  });

  it('stops the agent when the start signal aborts', async () => {
    const agent = await scriptedAgent({
      conversations: [{ turns: [{ fail: { kind: 'stall' } }] }],
    });
    try {
      const controller = new AbortController();
      const session = await agent.harness.start(agent.options({ signal: controller.signal }));
      for await (const event of session.events) if (event.type === 'session.started') break;
      controller.abort();
      expect(await session.outcome).toMatchObject({
        killed: true,
        signal: 'SIGTERM',
        resultReceived: false,
      });
    } finally {
      await agent.dispose();
    }
  });

  it.runIf(process.platform === 'linux')(
    'stops the agent when its log cannot be written',
    async () => {
      const agent = await scriptedAgent({
        conversations: [{ turns: [{ fail: { kind: 'stall' } }] }],
      });
      try {
        const outcome = await (await agent.harness.start(agent.options({ logPath: '/dev/full' })))
          .outcome;
        expect(outcome.killed).toBe(false);
        expect(outcome.failureReason?.message).toContain(
          'The disk is full (ENOSPC) writing /dev/full',
        );
      } finally {
        await agent.dispose();
      }
    },
  );
});
