import { describe, expect, it } from 'vitest';
import { turnSchema } from '../script-schema.js';
import { renderMessage } from './render-message.js';
import { messagesRequestSchema } from './request-view.js';

const cwdReminder = ' - Primary working directory: /tmp/agent-work\n';
const request = (extra: Record<string, unknown> = {}) =>
  messagesRequestSchema.parse({
    model: 'claude-sonnet-4-5',
    messages: [{ role: 'user', content: cwdReminder }],
    ...extra,
  });
const render = (turn: unknown, extra?: Record<string, unknown>) =>
  renderMessage(turnSchema.parse(turn), {
    request: request(extra),
    messageId: 'msg_1',
    idPrefix: 'p',
  });

describe('renderMessage()', () => {
  it('maps the tool shorthands to Claude Code tool inputs', () => {
    const message = render({
      content: [
        { write: { path: 'out/a.txt', content: 'A' } },
        { edit: { path: '/abs/b.txt', oldString: 'x', newString: 'y', replaceAll: true } },
        { bash: { command: 'ls', description: 'List', timeoutMs: 5000 } },
        { read: { path: 'c.txt', offset: 2, limit: 3 } },
        { tool: { name: 'Glob', input: { pattern: '*.ts' }, id: 'toolu_custom' } },
      ],
    });
    expect(message.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_pb0',
        name: 'Write',
        input: { file_path: '/tmp/agent-work/out/a.txt', content: 'A' },
      },
      {
        type: 'tool_use',
        id: 'toolu_pb1',
        name: 'Edit',
        input: { file_path: '/abs/b.txt', old_string: 'x', new_string: 'y', replace_all: true },
      },
      {
        type: 'tool_use',
        id: 'toolu_pb2',
        name: 'Bash',
        input: { command: 'ls', description: 'List', timeout: 5000 },
      },
      {
        type: 'tool_use',
        id: 'toolu_pb3',
        name: 'Read',
        input: { file_path: '/tmp/agent-work/c.txt', offset: 2, limit: 3 },
      },
      { type: 'tool_use', id: 'toolu_custom', name: 'Glob', input: { pattern: '*.ts' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('leaves relative paths alone when the request does not reveal a working directory', () => {
    const message = render(
      { content: [{ read: 'c.txt' }] },
      { messages: [{ role: 'user', content: 'no environment here' }] },
    );
    expect(message.content[0]).toMatchObject({ input: { file_path: 'c.txt' } });
  });

  it('ends the turn when no tool is called, unless the script says otherwise', () => {
    expect(render({ content: [{ text: 'hi' }] }).stop_reason).toBe('end_turn');
    expect(render({ content: [{ text: 'hi' }], stopReason: 'max_tokens' }).stop_reason).toBe(
      'max_tokens',
    );
  });

  it('answers an object with the forced tool, else as JSON text', () => {
    const turn = { content: [{ object: { ok: true } }] };
    const forced = render(turn, {
      tools: [{ name: 'json' }],
      tool_choice: { type: 'tool', name: 'json' },
    });
    expect(forced.content).toEqual([
      { type: 'tool_use', id: 'toolu_pb0', name: 'json', input: { ok: true } },
    ]);
    const anyOfOne = render(turn, { tools: [{ name: 'answer' }], tool_choice: { type: 'any' } });
    expect(anyOfOne.content[0]).toMatchObject({ type: 'tool_use', name: 'answer' });
    expect(render(turn).content).toEqual([{ type: 'text', text: '{"ok":true}' }]);
  });

  it('reports the scripted usage in the API form', () => {
    const message = render({
      content: [{ text: 'x' }],
      usage: { inputTokens: 7, cacheReadInputTokens: 4 },
    });
    expect(message.usage).toEqual({
      input_tokens: 7,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 4,
    });
  });
});
