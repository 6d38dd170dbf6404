import { gzipSync } from 'node:zlib';
import { sleep } from '@hankweave/durable-io';
import { describe, expect, it } from 'vitest';
import { parseSse, postMessages } from '../test/helpers/sse.js';
import type { ScriptInput } from './script-schema.js';
import { startScriptedModel } from './start-scripted-model.js';

const hello = { messages: [{ role: 'user', content: 'hello' }] };
const oneTurn = (turn: Record<string, unknown>): ScriptInput => ({
  conversations: [{ turns: [turn as never] }],
});

describe('startScriptedModel()', () => {
  it('streams a turn as Anthropic SSE and records the request', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({
        content: [{ text: 'streamed reply' }],
        usage: { inputTokens: 9, outputTokens: 4 },
      }),
    });
    const response = await postMessages(model.url, { ...hello, stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[3]?.data).toMatchObject({
      delta: { type: 'text_delta', text: 'streamed reply' },
    });
    expect(events[5]?.data).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: 9, output_tokens: 4 },
    });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatchObject({
      seq: 1,
      method: 'POST',
      path: '/v1/messages',
      kind: 'messages',
      body: { stream: true },
      match: { conversation: 0, conversationName: '#0', turn: 0, served: 'content' },
    });
    expect(model.requests[0]?.headers).not.toHaveProperty('x-api-key');
  });

  it('answers a non-streaming request with a JSON message', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({ content: [{ bash: 'ls' }] }),
    });
    const response = await postMessages(model.url, hello);
    expect(await response.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }],
    });
  });

  it('reads gzip-compressed request bodies', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({ content: [{ text: 'unzipped' }] }),
    });
    const response = await fetch(`${model.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ model: 'm', max_tokens: 5, ...hello })),
    });
    expect(await response.json()).toMatchObject({ content: [{ text: 'unzipped' }] });
  });

  it('answers count_tokens and start-up probes harmlessly', async () => {
    await using model = await startScriptedModel({ script: oneTurn({ content: [{ text: 'x' }] }) });
    const count = await fetch(`${model.url}/v1/messages/count_tokens`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', ...hello }),
    });
    expect(await count.json()).toEqual({ input_tokens: expect.any(Number) });
    expect((await fetch(`${model.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    expect(await (await fetch(`${model.url}/v1/models`)).json()).toMatchObject({
      object: 'list',
      data: [{ id: 'scripted-model', object: 'model', type: 'model' }],
      has_more: false,
    });
    expect(model.requests.map((r) => r.kind)).toEqual(['count-tokens', 'other', 'other']);
    expect(model.requests.every((r) => r.match === undefined)).toBe(true);
  });

  it("answers Claude Code's side requests with sideReply without consuming a turn", async () => {
    await using model = await startScriptedModel({
      script: {
        sideReply: 'A title',
        conversations: [{ turns: [{ content: [{ text: 'real turn' }] }] }],
      },
    });
    const side = await postMessages(model.url, hello, {
      headers: { 'user-agent': 'claude-cli/2.1.329' },
    });
    expect(await side.json()).toMatchObject({ content: [{ type: 'text', text: 'A title' }] });
    const real = await postMessages(model.url, {
      ...hello,
      tools: [{ name: 'Bash', input_schema: {} }],
    });
    expect(await real.json()).toMatchObject({ content: [{ text: 'real turn' }] });
    expect(model.requests.map((r) => [r.side, r.match?.turn])).toEqual([
      [true, undefined],
      [undefined, 0],
    ]);
  });

  it.each([
    [{ kind: 'rate-limit', retryAfterSeconds: 3 }, 429, 'rate_limit_error', /rate limit/],
    [{ kind: 'server-error' }, 500, 'api_error', /Internal server error/],
    [{ kind: 'overloaded' }, 529, 'overloaded_error', /Overloaded/],
    [
      { kind: 'prompt-too-long' },
      400,
      'invalid_request_error',
      /^prompt is too long: 250000 tokens > 200000/,
    ],
    [
      { kind: 'http-error', status: 401, type: 'authentication_error', message: 'bad key' },
      401,
      'authentication_error',
      /bad key/,
    ],
  ])('serves %o as HTTP %i %s', async (fail, status, type, message) => {
    await using model = await startScriptedModel({ script: oneTurn({ fail }) });
    const response = await postMessages(model.url, { ...hello, stream: true });
    expect(response.status).toBe(status);
    const body = (await response.json()) as {
      type: string;
      error: { type: string; message: string };
    };
    expect(body).toMatchObject({ type: 'error', error: { type } });
    expect(body.error.message).toMatch(message);
    if (status === 429) expect(response.headers.get('retry-after')).toBe('3');
    expect(model.requests[0]?.match).toMatchObject({
      served: 'failure',
      failure: fail.kind,
      attempt: 1,
    });
  });

  it('holds a stalled request open until close()', async () => {
    const model = await startScriptedModel({ script: oneTurn({ fail: { kind: 'stall' } }) });
    let settled = false;
    const pending = postMessages(model.url, hello).then(
      () => 'answered',
      () => 'failed',
    );
    void pending.finally(() => {
      settled = true;
    });
    await sleep(200);
    expect(settled).toBe(false);
    await model.close();
    expect(await pending).toBe('failed');
  });

  it('sends headers and then nothing for a stall after headers', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({ fail: { kind: 'stall', phase: 'after-headers' } }),
    });
    const response = await postMessages(model.url, { ...hello, stream: true });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const read = await Promise.race([reader?.read(), sleep(200).then(() => 'nothing yet')]);
    expect(read).toBe('nothing yet');
    await reader?.cancel();
  });

  it('cuts the stream after the first delta when the connection drops mid-stream', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({ fail: { kind: 'drop' }, content: [{ text: 'never complete' }] }),
    });
    const response = await postMessages(model.url, { ...hello, stream: true });
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>)
        chunks.push(decoder.decode(chunk));
    })();
    await expect(reading).rejects.toThrow();
    const events = parseSse(chunks.join(''));
    expect(events.at(-1)?.event).toBe('content_block_delta');
  });

  it('drops the connection before any byte', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({ fail: { kind: 'drop', phase: 'before-headers' } }),
    });
    await expect(postMessages(model.url, hello)).rejects.toThrow();
  });

  it('answers 400 with the error code when the script has no turn for the request', async () => {
    await using model = await startScriptedModel({
      script: oneTurn({ content: [{ text: 'only' }] }),
    });
    const response = await postMessages(model.url, {
      messages: [
        ...hello.messages,
        { role: 'assistant', content: 'only' },
        { role: 'user', content: 'more' },
      ],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringMatching(/^SCRIPTED_MODEL_NO_TURN/) },
    });
    // The record names what the script lacks: the conversation and the turn asked for.
    expect(model.requests[0]?.error).toMatchObject({
      code: 'SCRIPTED_MODEL_NO_TURN',
      details: { turn: 1 },
    });
    expect(model.requests[0]?.error?.details?.conversation).toEqual(expect.any(String));
  });

  it('answers 400 SCRIPTED_MODEL_INVALID_REQUEST to a body that is not a Messages request', async () => {
    await using model = await startScriptedModel({ script: oneTurn({ content: [{ text: 'x' }] }) });
    const response = await fetch(`${model.url}/v1/messages`, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(400);
    expect(model.requests[0]).toMatchObject({
      body: 'not json',
      error: { code: 'SCRIPTED_MODEL_INVALID_REQUEST' },
    });
  });

  it('rejects an invalid script with SCRIPTED_MODEL_INVALID_SCRIPT', async () => {
    await expect(startScriptedModel({ script: { conversations: [] } })).rejects.toMatchObject({
      code: 'SCRIPTED_MODEL_INVALID_SCRIPT',
    });
  });

  it('fails with SCRIPTED_MODEL_LISTEN_FAILED when the port is taken', async () => {
    const script = oneTurn({ content: [{ text: 'x' }] });
    await using first = await startScriptedModel({ script });
    await expect(startScriptedModel({ script, port: first.port })).rejects.toMatchObject({
      code: 'SCRIPTED_MODEL_LISTEN_FAILED',
    });
  });
});
