import { describe, expect, it } from 'vitest';
import { type ScriptInput, startScriptedModel } from '../../src/index.js';
import { parseSse } from '../helpers/sse.js';

// The OpenAI Responses API over loopback, the way Pi's openai-responses client (the OpenAI SDK)
// calls it: the answer's items come back as input items, tool results as function_call_output.

const developer = { role: 'developer', content: 'You are pi.\nCurrent working directory: /w' };
const prompt = { role: 'user', content: [{ type: 'input_text', text: 'Write it. RESP_DEMO' }] };
const tools = ['read', 'bash', 'edit', 'write'].map((name) => ({
  type: 'function',
  name,
  parameters: { type: 'object', properties: {} },
}));

const script: ScriptInput = {
  conversations: [
    {
      match: { marker: 'RESP_DEMO' },
      turns: [
        {
          content: [
            { thinking: 'Write it.' },
            { text: 'Writing a.txt.' },
            { write: { path: 'a.txt', content: 'A\n' } },
          ],
          usage: { inputTokens: 300, outputTokens: 40, cacheReadInputTokens: 900 },
        },
        {
          choose: [
            {
              when: { lastToolResultContains: 'WROTE_OK' },
              content: [{ text: 'Done.' }],
              usage: { inputTokens: 500, outputTokens: 3 },
            },
            { content: [{ text: 'The write failed.' }] },
          ],
        },
      ],
    },
  ],
};

function postResponses(url: string, body: Record<string, unknown>, path = '/v1/responses') {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
    body: JSON.stringify({ model: 'gpt-5.2', tools, ...body }),
  });
}

describe('POST /v1/responses', () => {
  it('streams a tool-calling turn, then answers the function_call_output with the next', async () => {
    await using model = await startScriptedModel({ script });
    const first = await postResponses(model.url, { input: [developer, prompt], stream: true });
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await first.text());
    const completed = events.at(-1);
    expect(completed?.event).toBe('response.completed');
    const response = completed?.data.response as { output: Record<string, unknown>[] };
    expect(response).toMatchObject({
      status: 'completed',
      usage: {
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 900 },
        output_tokens: 40,
      },
    });
    const call = response.output[2];
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_sm0t0a0b2',
      name: 'write',
      arguments: JSON.stringify({ path: '/w/a.txt', content: 'A\n' }),
    });

    // The client sends the output items back as they came, then the tool's result.
    const second = await postResponses(model.url, {
      input: [
        developer,
        prompt,
        ...response.output,
        { type: 'function_call_output', call_id: call?.call_id, output: 'WROTE_OK' },
      ],
    });
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(await second.json()).toMatchObject({
      object: 'response',
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'Done.' }] }],
      usage: { input_tokens: 500, output_tokens: 3 },
    });
    expect(model.requests.map((r) => [r.kind, r.match?.turn, r.match?.alternative])).toEqual([
      ['responses', 0, 0],
      ['responses', 1, 0],
    ]);
    expect(model.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('answers at /responses too (a base URL without /v1)', async () => {
    await using model = await startScriptedModel({ script });
    const response = await postResponses(model.url, { input: 'RESP_DEMO' }, '/responses');
    expect(response.status).toBe(200);
    expect(model.requests[0]).toMatchObject({ kind: 'responses', path: '/responses' });
  });

  it.each([
    [{ kind: 'rate-limit', retryAfterSeconds: 2 }, 429, 'requests', 'rate_limit_exceeded'],
    [{ kind: 'server-error' }, 500, 'server_error', null],
    [{ kind: 'overloaded' }, 503, 'server_error', null],
    [{ kind: 'prompt-too-long' }, 400, 'invalid_request_error', 'context_length_exceeded'],
  ])('serves %o as HTTP %i %s (code %s)', async (fail, status, type, code) => {
    const failing: ScriptInput = {
      conversations: [{ turns: [{ fail, times: 1, content: [{ text: 'recovered' }] } as never] }],
    };
    await using model = await startScriptedModel({ script: failing });
    const failed = await postResponses(model.url, { input: 'go', stream: true });
    expect(failed.status).toBe(status);
    const body = (await failed.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type, code });
    if (status === 429) expect(failed.headers.get('retry-after')).toBe('2');
    // Pi's overflow detection knows the Responses API's phrase.
    if (code !== null && status === 400) {
      expect(body.error.message).toMatch(/exceeds the context window/);
      expect(body.error.param).toBe('input');
    }
    const retried = await postResponses(model.url, { input: 'go' });
    expect(await retried.json()).toMatchObject({ output: [{ type: 'message' }] });
  });

  it('cuts the stream after the first delta when the connection drops mid-stream', async () => {
    await using model = await startScriptedModel({
      script: { conversations: [{ turns: [{ fail: { kind: 'drop' } }] }] },
    });
    const response = await postResponses(model.url, { input: 'go', stream: true });
    const parts: string[] = [];
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const part of response.body as AsyncIterable<Uint8Array>) {
        parts.push(decoder.decode(part));
      }
    })();
    await expect(reading).rejects.toThrow();
    const events = parseSse(parts.join('')).map((event) => event.event);
    expect(events.at(-1)).toBe('response.output_text.delta');
    expect(events).not.toContain('response.completed');
  });

  it("answers 400 with the server's own codes and records them", async () => {
    await using model = await startScriptedModel({ script });
    const noConversation = await postResponses(model.url, { input: 'no marker here' });
    const invalid = await postResponses(model.url, { input: 42 });
    expect([noConversation.status, invalid.status]).toEqual([400, 400]);
    expect(await noConversation.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'SCRIPTED_MODEL_NO_CONVERSATION' },
    });
    expect(model.requests.map((r) => r.error?.code)).toEqual([
      'SCRIPTED_MODEL_NO_CONVERSATION',
      'SCRIPTED_MODEL_INVALID_REQUEST',
    ]);
  });
});
