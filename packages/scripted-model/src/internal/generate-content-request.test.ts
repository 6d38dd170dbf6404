import { describe, expect, it } from 'vitest';
import {
  generateContentRequestSchema,
  generateContentTarget,
  generateContentToMessagesView,
} from './generate-content-request.js';
import {
  assistantMessagesAfter,
  lastToolResultText,
  systemText,
  workingDirectory,
} from './request-view.js';

// The body Pi 0.73.1 sends on its second request of a tool loop (the model is in the path).
const toolLoop = generateContentRequestSchema.parse({
  contents: [
    { role: 'user', parts: [{ text: 'Write it. MARKER_G' }] },
    {
      role: 'model',
      parts: [
        { text: 'plan', thought: true, thoughtSignature: 'c2ln' },
        { text: 'Writing.' },
        { functionCall: { name: 'write', args: { path: 'a.txt', content: 'A' } } },
        { functionCall: { id: 'call_2', name: 'bash', args: { command: 'ls' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'write', response: { output: 'Wrote a.txt' } } },
        { functionResponse: { id: 'call_2', name: 'bash', response: { error: 'BASH_FAILED' } } },
      ],
    },
  ],
  systemInstruction: { role: 'user', parts: [{ text: 'Current working directory: /tmp/g' }] },
  tools: [{ functionDeclarations: [{ name: 'write' }, { name: 'bash' }] }],
  generationConfig: { thinkingConfig: { includeThoughts: true } },
});

describe('generateContentTarget()', () => {
  it('reads the model and the streaming mode from the path, whatever its prefix', () => {
    expect(
      generateContentTarget('/v1beta/models/gemini-3-pro-preview:streamGenerateContent'),
    ).toEqual({ model: 'gemini-3-pro-preview', stream: true });
    expect(generateContentTarget('/models/gemini-2.5-flash:generateContent')).toEqual({
      model: 'gemini-2.5-flash',
      stream: false,
    });
    expect(generateContentTarget('/v1beta/models/gemini-2.5-flash:countTokens')).toBeUndefined();
    expect(generateContentTarget('/v1/chat/completions')).toBeUndefined();
  });
});

describe('generateContentToMessagesView()', () => {
  const target = { model: 'gemini-3-pro-preview', stream: true };

  it('maps model contents to assistant messages and function responses to tool results', () => {
    const view = generateContentToMessagesView(toolLoop, target);
    expect(view.model).toBe('gemini-3-pro-preview');
    expect(view.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Write it. MARKER_G' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan' },
          { type: 'text', text: 'Writing.' },
          {
            type: 'tool_use',
            id: 'write#2',
            name: 'write',
            input: { path: 'a.txt', content: 'A' },
          },
          { type: 'tool_use', id: 'call_2', name: 'bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'write', content: 'Wrote a.txt' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'BASH_FAILED' },
        ],
      },
    ]);
    expect(view.tools).toEqual([{ name: 'write' }, { name: 'bash' }]);
  });

  it('answers the shared questions the way the Messages view does', () => {
    const view = generateContentToMessagesView(toolLoop, target);
    expect(systemText(view)).toBe('Current working directory: /tmp/g');
    expect(workingDirectory(view)).toBe('/tmp/g');
    expect(assistantMessagesAfter(view, 0)).toBe(1);
    expect(lastToolResultText(view)).toBe('Wrote a.txt\nBASH_FAILED');
  });

  it('merges consecutive contents of one role into one message', () => {
    const view = generateContentToMessagesView(
      generateContentRequestSchema.parse({
        contents: [
          { role: 'user', parts: [{ text: 'a' }] },
          { role: 'user', parts: [{ text: 'b' }] },
        ],
        systemInstruction: 'plain text',
      }),
      target,
    );
    expect(view.messages).toHaveLength(1);
    expect(view.system).toBe('plain text');
  });

  it('reads a forced function call as the Messages tool choice', () => {
    const choose = (functionCallingConfig: unknown) =>
      generateContentToMessagesView(
        generateContentRequestSchema.parse({
          contents: [],
          toolConfig: { functionCallingConfig },
        }),
        target,
      ).tool_choice;
    expect(choose({ mode: 'ANY', allowedFunctionNames: ['answer'] })).toEqual({
      type: 'tool',
      name: 'answer',
    });
    expect(choose({ mode: 'ANY' })).toEqual({ type: 'any' });
    expect(choose({ mode: 'AUTO' })).toBeUndefined();
  });
});
