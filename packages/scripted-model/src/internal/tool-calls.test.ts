import { describe, expect, it } from 'vitest';
import { contentBlockSchema } from '../script-schema.js';
import { isToolBlock, scriptedToolCall, type ToolContext } from './tool-calls.js';

const PI_TOOLS = ['read', 'bash', 'edit', 'write'];
const CLAUDE_TOOLS = ['Task', 'Bash', 'Read', 'Edit', 'Write'];

function call(block: unknown, context: Partial<ToolContext> = {}) {
  const parsed = contentBlockSchema.parse(block);
  if (!isToolBlock(parsed)) throw new Error('not a tool block');
  return scriptedToolCall(parsed, { offered: [], fallback: 'claude-code', ...context });
}

describe('scriptedToolCall()', () => {
  const blocks = [
    { write: { path: 'out/a.txt', content: 'A' } },
    { edit: { path: '/abs/b.txt', oldString: 'x', newString: 'y', replaceAll: true } },
    { bash: { command: 'ls', description: 'List', timeoutMs: 5500 } },
    { read: { path: 'c.txt', offset: 2, limit: 3 } },
  ];

  it("uses Pi's tool names and argument shapes when the request offers Pi's tools", () => {
    const calls = blocks.map((block) => call(block, { offered: PI_TOOLS, cwd: '/work' }));
    expect(calls).toEqual([
      { name: 'write', input: { path: '/work/out/a.txt', content: 'A' } },
      { name: 'edit', input: { path: '/abs/b.txt', edits: [{ oldText: 'x', newText: 'y' }] } },
      { name: 'bash', input: { command: 'ls', timeout: 6 } },
      { name: 'read', input: { path: '/work/c.txt', offset: 2, limit: 3 } },
    ]);
  });

  it("uses Claude Code's tool names and argument shapes when the request offers Claude Code's tools", () => {
    const calls = blocks.map((block) => call(block, { offered: CLAUDE_TOOLS, fallback: 'pi' }));
    expect(calls).toEqual([
      { name: 'Write', input: { file_path: 'out/a.txt', content: 'A' } },
      {
        name: 'Edit',
        input: { file_path: '/abs/b.txt', old_string: 'x', new_string: 'y', replace_all: true },
      },
      { name: 'Bash', input: { command: 'ls', description: 'List', timeout: 5500 } },
      { name: 'Read', input: { file_path: 'c.txt', offset: 2, limit: 3 } },
    ]);
  });

  it('falls back to the given dialect when the request offers neither agent its tool', () => {
    expect(call({ bash: 'ls' }, { offered: ['grep'], fallback: 'pi' })).toEqual({
      name: 'bash',
      input: { command: 'ls' },
    });
    expect(call({ read: 'a.txt' }, { offered: [], fallback: 'claude-code' })).toEqual({
      name: 'Read',
      input: { file_path: 'a.txt' },
    });
  });

  it('decides per tool when a request offers only some of the agent tools', () => {
    const offered = ['write', 'Bash'];
    expect(call({ write: { path: 'a', content: '' } }, { offered }).name).toBe('write');
    expect(call({ bash: 'ls' }, { offered, fallback: 'pi' }).name).toBe('Bash');
  });

  it('passes a raw tool call through unchanged, with its id when given', () => {
    const raw = { tool: { name: 'grep', input: { pattern: 'TODO' }, id: 'call_1' } };
    expect(call(raw, { offered: PI_TOOLS })).toEqual({
      name: 'grep',
      input: { pattern: 'TODO' },
      id: 'call_1',
    });
  });
});

describe('isToolBlock()', () => {
  it('is false for text, thinking and structured output', () => {
    const others = [{ text: 'a' }, { thinking: 'b' }, { object: { c: 1 } }];
    expect(others.map((block) => isToolBlock(contentBlockSchema.parse(block)))).toEqual([
      false,
      false,
      false,
    ]);
  });
});
