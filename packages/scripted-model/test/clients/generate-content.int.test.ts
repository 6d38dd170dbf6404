import { describe, expect, it } from 'vitest';
import { type ScriptInput, startScriptedModel } from '../../src/index.js';

// The Gemini API's generateContent over loopback, the way Pi's google-generative-ai client (the
// @google/genai SDK) calls it: the model in the path, `model` contents for the answers, tool
// results as functionResponse parts.

const system = { role: 'user', parts: [{ text: 'Current working directory: /g' }] };
const prompt = { role: 'user', parts: [{ text: 'Write it. GEMINI_DEMO' }] };
const tools = [
  { functionDeclarations: ['read', 'bash', 'edit', 'write'].map((name) => ({ name })) },
];
const STREAM = '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse';
const UNARY = '/v1beta/models/gemini-3-pro-preview:generateContent';

const script: ScriptInput = {
  conversations: [
    {
      match: { marker: 'GEMINI_DEMO' },
      turns: [
        {
          content: [{ text: 'Writing a.txt.' }, { write: { path: 'a.txt', content: 'A\n' } }],
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

type Chunk = {
  candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[];
  usageMetadata?: Record<string, number>;
};

function post(url: string, path: string, body: Record<string, unknown>) {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'secret' },
    body: JSON.stringify({ systemInstruction: system, tools, ...body }),
  });
}

function parseChunks(body: string): Chunk[] {
  return body
    .split('\r\n\r\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Chunk);
}

describe('POST …/models/{model}:streamGenerateContent and :generateContent', () => {
  it('streams a function call, then answers the functionResponse with the next turn', async () => {
    await using model = await startScriptedModel({ script });
    const first = await post(model.url, STREAM, { contents: [prompt] });
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const chunks = parseChunks(await first.text());
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    expect(parts.map((part) => part.text ?? '').join('')).toBe('Writing a.txt.');
    const call = parts.find((part) => part.functionCall !== undefined)?.functionCall;
    expect(call).toEqual({
      id: 'call_sm0t0a0b1',
      name: 'write',
      args: { path: '/g/a.txt', content: 'A\n' },
    });
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount: 1200,
        candidatesTokenCount: 40,
        cachedContentTokenCount: 900,
      },
    });

    const second = await post(model.url, UNARY, {
      contents: [
        prompt,
        { role: 'model', parts },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'write', response: { output: 'WROTE_OK' } } }],
        },
      ],
    });
    expect(await second.json()).toMatchObject({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP' },
      ],
      usageMetadata: { promptTokenCount: 500, candidatesTokenCount: 3 },
    });
    expect(model.requests.map((r) => [r.kind, r.match?.turn, r.match?.alternative])).toEqual([
      ['generate-content', 0, 0],
      ['generate-content', 1, 0],
    ]);
    expect(model.requests[0]?.headers['x-goog-api-key']).toBeUndefined();
  });

  it('routes by the end of the path, whatever the version prefix, and hides a key parameter', async () => {
    await using model = await startScriptedModel({ script });
    const path = '/v1/models/gemini-3-pro-preview:generateContent?key=secret';
    const response = await post(model.url, path, { contents: [prompt] });
    expect(response.status).toBe(200);
    expect(model.requests[0]).toMatchObject({
      kind: 'generate-content',
      path: '/v1/models/gemini-3-pro-preview:generateContent?key=[hidden]',
    });
  });

  it.each([
    [{ kind: 'rate-limit', retryAfterSeconds: 2 }, 429, 'RESOURCE_EXHAUSTED', /rate limit/],
    [{ kind: 'server-error' }, 500, 'INTERNAL', /internal error/],
    [{ kind: 'overloaded' }, 503, 'UNAVAILABLE', /overloaded/],
    [{ kind: 'prompt-too-long' }, 400, 'INVALID_ARGUMENT', /input token count \(250000\) exceeds/],
    [{ kind: 'http-error', status: 403, message: 'denied' }, 403, 'PERMISSION_DENIED', /denied/],
  ])('serves %o as HTTP %i %s', async (fail, status, name, message) => {
    const failing: ScriptInput = {
      conversations: [{ turns: [{ fail, times: 1, content: [{ text: 'recovered' }] } as never] }],
    };
    await using model = await startScriptedModel({ script: failing });
    const failed = await post(model.url, STREAM, { contents: [prompt] });
    expect(failed.status).toBe(status);
    const body = (await failed.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: status, status: name, message });
    if (status === 429) {
      expect(body.error.details).toEqual([
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
      ]);
    }
    const retried = await post(model.url, UNARY, { contents: [prompt] });
    expect(await retried.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'recovered' }] } }],
    });
  });

  it('cuts the stream after its first chunk when the connection drops mid-stream', async () => {
    await using model = await startScriptedModel({
      script: { conversations: [{ turns: [{ fail: { kind: 'drop' } }] }] },
    });
    const response = await post(model.url, STREAM, { contents: [prompt] });
    const parts: string[] = [];
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const part of response.body as AsyncIterable<Uint8Array>) {
        parts.push(decoder.decode(part));
      }
    })();
    await expect(reading).rejects.toThrow();
    const chunks = parseChunks(parts.join(''));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.candidates[0]?.finishReason).toBeUndefined();
  });

  it("answers 400 INVALID_ARGUMENT with the server's own codes and records them", async () => {
    await using model = await startScriptedModel({ script });
    const noConversation = await post(model.url, UNARY, {
      contents: [{ role: 'user', parts: [{ text: 'no marker' }] }],
    });
    const invalid = await post(model.url, UNARY, { contents: 'not a list' });
    expect([noConversation.status, invalid.status]).toEqual([400, 400]);
    expect(await noConversation.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^SCRIPTED_MODEL_NO_CONVERSATION: /),
      },
    });
    expect(model.requests.map((r) => r.error?.code)).toEqual([
      'SCRIPTED_MODEL_NO_CONVERSATION',
      'SCRIPTED_MODEL_INVALID_REQUEST',
    ]);
  });
});
