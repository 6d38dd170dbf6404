import { describe, expect, it } from 'vitest';
import { type ScriptInput, startScriptedModel } from '../../src/index.js';
import { assembleStream, PI_TOOLS, parseChatSse, postChat } from '../helpers/chat.js';
import { parseSse, postMessages } from '../helpers/sse.js';

// One script, two agents: Claude Code on the Messages API, Pi on Chat Completions.
const script: ScriptInput = {
  conversations: [
    {
      match: { marker: 'SHARED_DEMO' },
      turns: [
        {
          content: [
            { text: 'Editing config.' },
            { edit: { path: 'config.txt', oldString: 'old', newString: 'new' } },
            { read: 'config.txt' },
          ],
          usage: { inputTokens: 70, outputTokens: 12, cacheReadInputTokens: 30 },
        },
      ],
    },
  ],
};

const CLAUDE_TOOLS = ['Bash', 'Edit', 'Read', 'Write'].map((name) => ({ name, input_schema: {} }));

describe('one script answering both APIs', () => {
  it('serves the same turn to a Claude Code request and a Pi request, in each one its tools', async () => {
    await using model = await startScriptedModel({ script });
    const anthropic = await postMessages(model.url, {
      messages: [
        { role: 'user', content: ' - Primary working directory: /work\nEdit it. SHARED_DEMO' },
      ],
      tools: CLAUDE_TOOLS,
      stream: true,
    });
    const events = parseSse(await anthropic.text());
    const starts = events.filter((e) => e.event === 'content_block_start');
    const jsonOf = (index: number) =>
      events
        .filter((e) => e.event === 'content_block_delta' && e.data.index === index)
        .map((e) => (e.data.delta as { partial_json?: string }).partial_json ?? '')
        .join('');
    const claudeCalls = starts
      .map((e) => e.data.content_block as { type: string; name?: string })
      .flatMap((block, index) =>
        block.type === 'tool_use' ? [{ name: block.name, input: JSON.parse(jsonOf(index)) }] : [],
      );

    const openai = await postChat(model.url, {
      messages: [
        { role: 'system', content: 'Current working directory: /work' },
        { role: 'user', content: 'Edit it. SHARED_DEMO' },
      ],
      tools: PI_TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    const pi = assembleStream(parseChatSse(await openai.text()).chunks);

    expect(claudeCalls).toEqual([
      {
        name: 'Edit',
        input: { file_path: '/work/config.txt', old_string: 'old', new_string: 'new' },
      },
      { name: 'Read', input: { file_path: '/work/config.txt' } },
    ]);
    expect(pi.toolCalls.map(({ name, arguments: input }) => ({ name, input }))).toEqual([
      {
        name: 'edit',
        input: { path: '/work/config.txt', edits: [{ oldText: 'old', newText: 'new' }] },
      },
      { name: 'read', input: { path: '/work/config.txt' } },
    ]);
    const text = events
      .map((e) => (e.data.delta as { text?: string } | undefined)?.text ?? '')
      .join('');
    expect([text, pi.content]).toEqual(['Editing config.', 'Editing config.']);
    const anthropicUsage = events.find((e) => e.event === 'message_delta')?.data.usage;
    expect(anthropicUsage).toMatchObject({ input_tokens: 70, cache_read_input_tokens: 30 });
    // OpenAI counts cached tokens inside prompt_tokens: 70 uncached + 30 cached.
    expect(pi.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 12,
      prompt_tokens_details: { cached_tokens: 30 },
    });
    expect(model.requests.map((r) => [r.kind, r.match?.conversation, r.match?.turn])).toEqual([
      ['messages', 0, 0],
      ['chat-completions', 0, 0],
    ]);
  });
});
