import { readFile } from 'node:fs/promises';
import { AgentLogParser } from '@hankweave/harness';
import { defaultModelCatalog } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { catalogPrice } from './pi-log-translator.js';
import {
  type ClaudeRecord,
  finishPiTranslation,
  initialPiTranslation,
  translatePiLine,
} from './translate-pi-line.js';

// The fixtures are Pi 0.73.1's real `--mode json -p` output against @hankweave/scripted-model
// (Chat Completions), one file per scenario, captured unedited.

const MODEL = 'gpt-5.2';
const price = catalogPrice(defaultModelCatalog);

async function fixture(name: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(new URL(`../test/fixtures/pi-lines/${name}.jsonl`, import.meta.url));
  return String(text)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every record a whole Pi run translates into, the result included. */
async function translateFixture(name: string): Promise<ClaudeRecord[]> {
  let state = initialPiTranslation({ model: MODEL });
  const records: ClaudeRecord[] = [];
  for (const line of await fixture(name)) {
    const step = translatePiLine(state, line);
    state = step.state;
    records.push(...step.records);
  }
  const end = finishPiTranslation(state, price);
  expect(finishPiTranslation(end.state, price).records).toEqual([]);
  return [...records, ...end.records];
}

/** What the harness parser makes of the records: the same path the agent log takes. */
function parse(records: ClaudeRecord[]) {
  const parser = new AgentLogParser({ codonId: 'c#0', model: MODEL });
  const events = records.flatMap((record) =>
    parser.push(JSON.stringify({ ...record, timestamp: '2026-01-01T00:00:00.000Z' })),
  );
  return { events: [...events, ...parser.finish()], state: parser.state, parser };
}

describe('translatePiLine()', () => {
  it('translates a plain answer into init, one assistant message and a priced success', async () => {
    const records = await translateFixture('first-answer');
    expect(records.map((record) => [record.type, record.subtype])).toEqual([
      ['system', 'init'],
      ['assistant', undefined],
      ['result', 'success'],
    ]);
    const sessionId = '01a210e9-5d80-731c-80f9-9f3b7f24f8cc';
    expect(records[0]).toMatchObject({ session_id: sessionId, model: MODEL });
    expect(records[1]).toMatchObject({
      session_id: sessionId,
      message: {
        id: 'chatcmpl-scripted-0001',
        model: MODEL,
        content: [{ type: 'text', text: 'first answer' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 100, output_tokens: 10 },
      },
    });
    const usage = {
      inputTokens: 100,
      outputTokens: 10,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
    };
    expect(records[2]).toMatchObject({
      is_error: false,
      result: 'first answer',
      session_id: sessionId,
      total_cost_usd: defaultModelCatalog.priceUsage(MODEL, usage).cost,
    });
    const { state } = parse(records);
    expect(state).toMatchObject({ sessionId, successResult: true, assistantMessageCount: 1 });
  });

  it('turns a tool call and its result into tool_use and tool_result blocks with one id', async () => {
    const records = await translateFixture('tool-write');
    const { events, state } = parse(records);
    const toolUse = events.find(
      (event) => event.type === 'assistant.action' && event.data.action === 'tool_use',
    );
    expect(toolUse).toMatchObject({
      data: { toolName: 'write', toolUseId: 'call_sm0t0a0b1' },
    });
    const result = events.find((event) => event.type === 'tool.result');
    expect(result).toMatchObject({
      data: { toolUseId: 'call_sm0t0a0b1', toolName: 'write', isError: false },
    });
    expect(state).toMatchObject({
      successResult: true,
      successResultText: 'Done.',
      assistantMessageCount: 2,
      tokens: { inputTokens: 700, outputTokens: 45 },
    });
  });

  it('keeps thinking, cache tokens and a recovered retry out of the failure', async () => {
    const records = await translateFixture('retry-recovered');
    expect(records.filter((record) => record.subtype === 'api_retry')).toEqual([
      expect.objectContaining({ attempt: 1, retry_delay_ms: 2000, error_status: 503 }),
    ]);
    const { events, state } = parse(records);
    expect(events.filter((event) => event.type === 'api.retry')).toHaveLength(1);
    expect(
      events.some((event) => event.type === 'assistant.action' && event.data.action === 'thinking'),
    ).toBe(true);
    expect(state.errorResultText).toBeUndefined();
    expect(state).toMatchObject({
      successResult: true,
      successResultText: 'All done.',
      tokens: { inputTokens: 120, outputTokens: 8, cacheReadTokens: 900, cacheCreationTokens: 300 },
    });
  });

  it('ends in an error result with the API error when Pi exits after failed retries', async () => {
    const records = await translateFixture('rate-limit-retried');
    expect(records.filter((record) => record.type === 'assistant')).toEqual([]);
    expect(records.filter((record) => record.subtype === 'api_retry')).toHaveLength(3);
    expect(records.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'error',
      is_error: true,
      result: '429 Rate limit reached for requests (scripted). Please try again in 0s.',
    });
    const { state } = parse(records);
    expect(state).toMatchObject({ successResult: false, assistantMessageCount: 0 });
  });

  it('reports a bad request as an error result that is not a context overflow', async () => {
    const { state } = parse(await translateFixture('bad-request'));
    expect(state).toMatchObject({
      errorResultText: '400 Scripted bad request',
      contextExceeded: false,
    });
  });

  it("words a context overflow as Claude's prompt-too-long so the parser sees it", async () => {
    const records = await translateFixture('context-overflow');
    expect(records.some((record) => record.subtype === 'compact_boundary')).toBe(true);
    const { events, state } = parse(records);
    expect(state.contextExceeded).toBe(true);
    expect(state.errorResultText).toMatch(/^Prompt is too long: 400 This model's maximum context/);
    expect(events.filter((event) => event.type === 'context.exceeded')).toHaveLength(1);
  });

  it.each([
    ['openai-completions', "400 This model's maximum context length is 200000 tokens."],
    ['openai-responses', '400 Your input exceeds the context window of this model.'],
    ['anthropic-messages', '400 prompt is too long: 250000 tokens > 200000 maximum'],
    [
      'google-generative-ai',
      '{"error":{"code":400,"message":"The input token count (250000) exceeds the maximum number of tokens allowed (200000).","status":"INVALID_ARGUMENT"}}',
    ],
  ])('reads the %s overflow text as context exceeded', (api, errorMessage) => {
    let state = initialPiTranslation({ model: MODEL });
    const failed = { role: 'assistant', content: [], api, stopReason: 'error', errorMessage };
    for (const line of [
      { type: 'session', id: 'abc', cwd: '/w' },
      { type: 'message_end', message: failed },
      { type: 'agent_end' },
    ]) {
      state = translatePiLine(state, line).state;
    }
    const { state: parsed } = parse(finishPiTranslation(state, price).records);
    expect(parsed.contextExceeded).toBe(true);
    expect(parsed.errorResultText).toBe(`Prompt is too long: ${errorMessage}`);
  });

  it('costs a resumed run only its own messages', async () => {
    const records = await translateFixture('resumed-answer');
    expect(records.at(-1)).toMatchObject({
      subtype: 'success',
      result: 'second answer',
      usage: { input_tokens: 200, output_tokens: 20 },
    });
  });

  it('writes no result for a run Pi never finished', () => {
    let state = initialPiTranslation({ model: MODEL });
    state = translatePiLine(state, { type: 'session', id: 'abc', cwd: '/w' }).state;
    state = translatePiLine(state, { type: 'agent_start' }).state;
    expect(finishPiTranslation(state, price).records).toEqual([]);
  });

  it('leaves lines it does not know alone, without records or a changed state', () => {
    const state = initialPiTranslation({ model: MODEL });
    for (const type of ['turn_start', 'message_update', 'tool_execution_update', 'queue_update']) {
      expect(translatePiLine(state, { type })).toEqual({ state, records: [] });
    }
  });

  it('omits total_cost_usd when the catalog has no price for the model', () => {
    let state = initialPiTranslation({ model: 'my-local-model' });
    state = translatePiLine(state, { type: 'agent_end' }).state;
    const [result] = finishPiTranslation(state, price).records;
    expect(result).toMatchObject({ subtype: 'success' });
    expect(result).not.toHaveProperty('total_cost_usd');
  });
});
