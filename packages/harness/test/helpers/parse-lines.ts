import type { AgentEvent } from '../../src/agent-event.js';
import { AgentLogParser } from '../../src/parser/agent-log-parser.js';
import type { AgentLogParserOptions } from '../../src/parser/agent-log-state.js';

// Small builders of Claude Code stream-json lines for the parser tests.

export const SESSION = 'sess-1';
export const MODEL = 'claude-sonnet-4-5';

export function run(lines: Array<object | string>, options: Partial<AgentLogParserOptions> = {}) {
  const parser = new AgentLogParser({ codonId: 'c#0', now: () => new Date(0), ...options });
  const events: AgentEvent[] = [];
  for (const line of lines) {
    events.push(...parser.push(typeof line === 'string' ? line : JSON.stringify(line)));
  }
  const final = parser.finish();
  return { parser, events, final, all: [...events, ...final] };
}

export const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

export const init = {
  type: 'system',
  subtype: 'init',
  session_id: SESSION,
  model: MODEL,
  claude_code_version: '2.1.329',
  cwd: '/w',
};
export const assistant = (
  id: string,
  content: object[],
  usage: object = { input_tokens: 10, output_tokens: 5 },
  extra: object = {},
) => ({
  type: 'assistant',
  message: { id, model: MODEL, content, usage },
  session_id: SESSION,
  parent_tool_use_id: null,
  ...extra,
});
export const synthetic = (text: string) => ({
  type: 'assistant',
  message: {
    id: `syn-${text.length}`,
    model: '<synthetic>',
    content: [{ type: 'text', text }],
    usage: { input_tokens: 0, output_tokens: 0 },
  },
  session_id: SESSION,
});
export const toolResult = (toolUseId: string, content: unknown, extra: object = {}) => ({
  type: 'user',
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: toolUseId, content, ...extra }],
  },
  session_id: SESSION,
});
export const result = (fields: object) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  session_id: SESSION,
  ...fields,
});
