import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent-event.js';
import { stampStdoutLine } from '../src/agent-log-writer.js';
import { deriveFailureReason } from '../src/classify/derive-failure-reason.js';
import { AgentLogParser } from '../src/parser/agent-log-parser.js';
import type { AgentLogParserOptions } from '../src/parser/agent-log-state.js';

// Logs recorded from the real Claude Code 2.1.329 (see the READMEs next to them).
const LOGS = fileURLToPath(new URL('./fixtures/agent-logs/', import.meta.url));
const RAW = fileURLToPath(new URL('./fixtures/raw-stdout/', import.meta.url));

async function parseFile(path: string, options: Partial<AgentLogParserOptions> = {}) {
  const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
  const parser = new AgentLogParser({ codonId: 'c#0', model: 'claude-sonnet-4-5', ...options });
  const events = lines.flatMap((line) => parser.push(line));
  const all = [...events, ...parser.finish()];
  const state = parser.state;
  const reason = deriveFailureReason({
    ...(state.errorResultText !== undefined && { errorResultText: state.errorResultText }),
    syntheticTimeout: state.syntheticTimeout,
    sessionEstablished: state.sessionId !== undefined,
    successResult: state.successResult,
    exitCode: 1,
    contextExceeded: state.contextExceeded,
  });
  return { lines, events: all, state, reason, final: parser.finalCost() };
}

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

const deltaSum = (events: AgentEvent[]) =>
  ofType(events, 'token.usage')
    .filter((event) => !event.final)
    .reduce((sum, event) => sum + event.data.totalCost, 0);

describe('recorded harness logs', async () => {
  const files = (await readdir(LOGS)).filter((file) => file.endsWith('.log'));

  it('are all there', () => {
    expect(files.sort()).toEqual(
      [
        'connection-dropped.log',
        'idle-timeout.log',
        'killed-mid-tool.log',
        'overloaded-529.log',
        'prompt-too-long.log',
        'rate-limit-429.log',
        'resume.log',
        'subagent.log',
        'tool-calls.log',
      ].sort(),
    );
  });

  it.each(files)(
    '%s: every line is stamped, stamping again changes nothing, a session starts',
    async (file) => {
      const { lines, events, state } = await parseFile(`${LOGS}${file}`);
      for (const line of lines) {
        expect(typeof JSON.parse(line).timestamp).toBe('string');
        expect(stampStdoutLine(line, 'other')).toBe(line);
      }
      expect(ofType(events, 'session.started')).toHaveLength(1);
      expect(state.unparsedLineCount).toBe(0);
    },
  );

  it('tool-calls.log: one message id over four lines, counted once; costs add up', async () => {
    const { events, state, reason, final } = await parseFile(`${LOGS}tool-calls.log`);
    expect(ofType(events, 'api.retry')).toHaveLength(1);
    expect(ofType(events, 'assistant.action').map((event) => event.data.action)).toEqual([
      'thinking',
      'message',
      'tool_use',
      'tool_use',
      'message',
    ]);
    expect(ofType(events, 'tool.result').map((event) => event.data.toolName)).toEqual([
      'Write',
      'Bash',
    ]);
    expect(state.assistantMessageCount).toBe(2);
    expect(reason).toBeUndefined();
    expect(final.source).toBe('total_cost_usd');
    expect(deltaSum(events)).toBeCloseTo(final.finalCost, 12);
    expect(final.finalTokens).toEqual(state.tokens);
    expect(ofType(events, 'warning')).toEqual([]);
  });

  it('resume.log: the attempt costs one call although total_cost_usd covers two', async () => {
    const { events, final } = await parseFile(`${LOGS}resume.log`, { resumed: true });
    expect(ofType(events, 'result')[0]?.totalCostUsd).toBeCloseTo(36e-6, 12);
    expect(final).toMatchObject({ source: 'result-usage' });
    expect(final.finalCost).toBeCloseTo(18e-6, 12);
  });

  it.each([
    ['rate-limit-429.log', { type: 'rate-limit', retriable: true, retryAfterMs: 7000 }, false],
    ['overloaded-529.log', { type: 'api-error', retriable: true }, false],
    ['connection-dropped.log', { type: 'api-error', retriable: true }, false],
    ['prompt-too-long.log', { type: 'api-error', retriable: false }, true],
    ['idle-timeout.log', { type: 'timeout', retriable: true }, false],
  ])('%s: classified as %o', async (file, expected, contextExceeded) => {
    const { reason, state, events } = await parseFile(`${LOGS}${file}`);
    expect(reason).toMatchObject(expected);
    expect(state).toMatchObject({ resultReceived: true, successResult: false, contextExceeded });
    expect(ofType(events, 'result')[0]?.isError).toBe(true);
    // The agent's error notice is a <synthetic> message: shown, never counted or priced.
    expect(state.assistantMessageCount).toBe(0);
  });

  it('killed-mid-tool.log: no result; the stopped tool reports an error', async () => {
    const { state, events } = await parseFile(`${LOGS}killed-mid-tool.log`);
    expect(state).toMatchObject({ resultReceived: false, pendingToolUseCount: 0, killNoted: true });
    expect(ofType(events, 'tool.result')[0]?.data).toMatchObject({
      isError: true,
      result: 'Exit code 137',
    });
  });

  it('subagent.log: marked subagent actions, the post-success error ignored, costs add up', async () => {
    const { state, events, reason, final } = await parseFile(`${LOGS}subagent.log`);
    const sub = ofType(events, 'assistant.action').filter((event) => event.data.parentToolUseId);
    expect(sub.length).toBeGreaterThanOrEqual(2);
    expect(ofType(events, 'result').map((event) => event.isError)).toEqual([false, true]);
    expect(state).toMatchObject({ successResult: true, assistantMessageCount: 2 });
    expect(state.errorResultText).toBeUndefined();
    expect(reason).toBeUndefined();
    expect(deltaSum(events)).toBeCloseTo(final.finalCost, 12);
  });
});

describe('raw Claude Code stdout (no harness timestamps)', () => {
  it.each([
    ['happy-path-tools.jsonl', undefined, false],
    ['resume.jsonl', undefined, false],
    ['rate-limit-429.jsonl', 'rate-limit', false],
    ['prompt-too-long.jsonl', 'api-error', true],
    ['stall-timeout.jsonl', 'timeout', false],
  ])('%s parses to a %s outcome', async (file, type, contextExceeded) => {
    const { reason, state, events } = await parseFile(`${RAW}${file}`);
    expect(reason?.type).toBe(type);
    expect(state).toMatchObject({ resultReceived: true, contextExceeded });
    expect(ofType(events, 'session.started')).toHaveLength(1);
  });

  it('happy-path-tools.jsonl: the usage of the split message is counted once', async () => {
    const { final, events } = await parseFile(`${RAW}happy-path-tools.jsonl`);
    expect(final.finalTokens).toEqual({
      inputTokens: 2700,
      outputTokens: 92,
      cacheCreationTokens: 300,
      cacheReadTokens: 900,
    });
    expect(deltaSum(events)).toBeCloseTo(final.finalCost, 12);
  });
});
