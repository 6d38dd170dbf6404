import { describe, expect, it } from 'vitest';
import { type ScriptInput, startScriptedModel } from '../../src/index.js';
import { assembleStream, PI_TOOLS, parseChatSse, postChat } from '../helpers/chat.js';

const system = { role: 'system', content: 'You are pi.\nCurrent working directory: /tmp/pi-work' };
const prompt = { role: 'user', content: [{ type: 'text', text: 'Write the note. NOTE_DEMO' }] };

const noteScript: ScriptInput = {
  conversations: [
    {
      name: 'note',
      match: { marker: 'NOTE_DEMO' },
      turns: [
        {
          content: [
            { thinking: 'Write it, then check it.' },
            { text: 'Writing note.txt.' },
            { write: { path: 'note.txt', content: 'a note\n' } },
            { bash: { command: 'cat note.txt && echo NOTE_OK', description: 'Check' } },
          ],
          usage: { inputTokens: 300, outputTokens: 40, cacheReadInputTokens: 900 },
        },
        {
          choose: [
            {
              when: { lastToolResultContains: 'NOTE_OK' },
              content: [{ text: 'Done: note.txt is written.' }],
              usage: { inputTokens: 500, outputTokens: 9 },
            },
            { content: [{ text: 'The check failed.' }] },
          ],
        },
      ],
    },
  ],
};

describe('POST /v1/chat/completions', () => {
  it('streams a tool-calling turn, then answers the tool results with the next turn', async () => {
    await using model = await startScriptedModel({ script: noteScript });
    const first = await postChat(model.url, {
      messages: [system, prompt],
      tools: PI_TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const stream = parseChatSse(await first.text());
    expect(stream.done).toBe(true);
    const turn0 = assembleStream(stream.chunks);
    expect(turn0).toEqual({
      content: 'Writing note.txt.',
      reasoning: 'Write it, then check it.',
      toolCalls: [
        {
          id: 'call_sm0t0a0b2',
          name: 'write',
          arguments: { path: '/tmp/pi-work/note.txt', content: 'a note\n' },
        },
        {
          id: 'call_sm0t0a0b3',
          name: 'bash',
          arguments: { command: 'cat note.txt && echo NOTE_OK' },
        },
      ],
      finishReason: 'tool_calls',
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 40,
        total_tokens: 1240,
        prompt_tokens_details: { cached_tokens: 900 },
      },
    });

    const second = await postChat(model.url, {
      messages: [
        system,
        prompt,
        {
          role: 'assistant',
          content: turn0.content,
          tool_calls: turn0.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        },
        { role: 'tool', tool_call_id: 'call_sm0t0a0b2', content: 'Wrote note.txt' },
        { role: 'tool', tool_call_id: 'call_sm0t0a0b3', content: 'a note\nNOTE_OK' },
      ],
      tools: PI_TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    const turn1 = assembleStream(parseChatSse(await second.text()).chunks);
    expect(turn1).toMatchObject({
      content: 'Done: note.txt is written.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { prompt_tokens: 500, completion_tokens: 9 },
    });
    expect(model.requests.map((r) => [r.kind, r.match?.turn, r.match?.alternative])).toEqual([
      ['chat-completions', 0, 0],
      ['chat-completions', 1, 0],
    ]);
  });

  it('answers without streaming as one chat.completion, also at /chat/completions', async () => {
    await using model = await startScriptedModel({ script: noteScript });
    const response = await postChat(
      model.url,
      { messages: [system, prompt], tools: PI_TOOLS },
      { path: '/chat/completions' },
    );
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-5.2',
      choices: [
        {
          message: {
            role: 'assistant',
            content: 'Writing note.txt.',
            reasoning_content: 'Write it, then check it.',
            tool_calls: [{ function: { name: 'write' } }, { function: { name: 'bash' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 1200, prompt_tokens_details: { cached_tokens: 900 } },
    });
    expect(model.requests[0]).toMatchObject({
      kind: 'chat-completions',
      path: '/chat/completions',
    });
  });

  it.each([
    [{ kind: 'rate-limit', retryAfterSeconds: 2 }, 429, 'requests', 'rate_limit_exceeded'],
    [{ kind: 'server-error' }, 500, 'server_error', null],
    [{ kind: 'overloaded' }, 503, 'server_error', null],
    [{ kind: 'prompt-too-long' }, 400, 'invalid_request_error', 'context_length_exceeded'],
    [{ kind: 'http-error', status: 401, type: 'invalid_api_key' }, 401, 'invalid_api_key', null],
  ])('serves %o as HTTP %i %s (code %s)', async (fail, status, type, code) => {
    const script: ScriptInput = {
      conversations: [{ turns: [{ fail, times: 1, content: [{ text: 'recovered' }] } as never] }],
    };
    await using model = await startScriptedModel({ script });
    const failed = await postChat(model.url, { messages: [prompt], stream: true });
    expect(failed.status).toBe(status);
    const body = (await failed.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type, code });
    expect(typeof body.error.message).toBe('string');
    if (status === 429) expect(failed.headers.get('retry-after')).toBe('2');
    if (code === 'context_length_exceeded') {
      expect(body.error.message).toMatch(/maximum context length is 200000 tokens/);
    }
    const retried = await postChat(model.url, { messages: [prompt] });
    expect(await retried.json()).toMatchObject({
      choices: [{ message: { content: 'recovered' } }],
    });
    expect(model.requests.map((r) => r.match?.served)).toEqual(['failure', 'content']);
  });

  it('cuts the stream after the first delta when the connection drops mid-stream', async () => {
    await using model = await startScriptedModel({
      script: { conversations: [{ turns: [{ fail: { kind: 'drop' } }] }] },
    });
    const response = await postChat(model.url, { messages: [prompt], stream: true });
    const parts: string[] = [];
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const part of response.body as AsyncIterable<Uint8Array>) {
        parts.push(decoder.decode(part));
      }
    })();
    await expect(reading).rejects.toThrow();
    const { chunks, done } = parseChatSse(parts.join(''));
    expect(done).toBe(false);
    expect(chunks.map((c) => c.choices[0]?.finish_reason)).toEqual([null, null]);
  });

  it("answers 400 with the server's own codes and records them", async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [{ match: { marker: 'ONLY' }, turns: [{ content: [{ text: 'x' }] }] }],
      },
    });
    const noConversation = await postChat(model.url, { messages: [prompt] });
    const noTurn = await postChat(model.url, {
      messages: [
        { role: 'user', content: 'ONLY' },
        { role: 'assistant', content: 'x' },
        { role: 'user', content: 'more' },
      ],
    });
    const invalid = await postChat(model.url, { messages: 'not a list' });
    const bodies = await Promise.all([noConversation, noTurn, invalid].map((r) => r.json()));
    const codes = [
      'SCRIPTED_MODEL_NO_CONVERSATION',
      'SCRIPTED_MODEL_NO_TURN',
      'SCRIPTED_MODEL_INVALID_REQUEST',
    ];
    expect([noConversation.status, noTurn.status, invalid.status]).toEqual([400, 400, 400]);
    expect(bodies).toEqual(
      codes.map((code) => ({
        error: {
          message: expect.stringMatching(new RegExp(`^${code}: `)),
          type: 'invalid_request_error',
          param: null,
          code,
        },
      })),
    );
    expect(model.requests.map((r) => r.error?.code)).toEqual(codes);
  });
});

describe('GET /v1/models', () => {
  it('lists the model ids the script mentions', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          {
            turns: [
              {
                choose: [
                  { when: { model: 'gpt-5.2' }, content: [{ text: 'a' }] },
                  { when: { model: 'gemini-3-pro-preview' }, content: [{ text: 'b' }] },
                ],
              },
            ],
          },
        ],
      },
    });
    const list = await (await fetch(`${model.url}/v1/models`)).json();
    expect(list).toMatchObject({
      object: 'list',
      data: [
        { id: 'gpt-5.2', object: 'model' },
        { id: 'gemini-3-pro-preview', object: 'model' },
      ],
    });
  });
});
