import { describe, expect, it } from 'vitest';
import {
  type GenerateContentResponse,
  geminiFinishReasonOf,
  generateContentChunks,
  partialGenerateContentChunk,
  toGenerateContentResponse,
  usageMetadataOf,
} from './render-generate-content.js';
import type { ApiMessage } from './render-message.js';

const message: ApiMessage = {
  id: 'scripted-0001',
  type: 'message',
  role: 'assistant',
  model: 'gemini-3-pro-preview',
  content: [
    { type: 'thinking', thinking: 'plan', signature: 'c2ln' },
    { type: 'text', text: 'A text that is longer than one chunk of the stream.' },
    { type: 'tool_use', id: 'call_a', name: 'write', input: { path: 'a', content: 'x' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 100,
    output_tokens: 7,
    cache_creation_input_tokens: 20,
    cache_read_input_tokens: 30,
  },
};
const meta = { responseId: 'scripted-0001' };

function parse(chunks: string[]): GenerateContentResponse[] {
  return chunks.map((chunk) => {
    expect(chunk.startsWith('data: ')).toBe(true);
    expect(chunk.endsWith('\r\n\r\n')).toBe(true);
    return JSON.parse(chunk.slice('data: '.length)) as GenerateContentResponse;
  });
}

describe('usageMetadataOf()', () => {
  it('counts cached and cache-written tokens inside the prompt, cache reads as cached content', () => {
    expect(usageMetadataOf(message.usage)).toEqual({
      promptTokenCount: 150,
      candidatesTokenCount: 7,
      totalTokenCount: 157,
      cachedContentTokenCount: 30,
    });
    const uncached = { ...message.usage, cache_read_input_tokens: 0 };
    expect(usageMetadataOf(uncached)).not.toHaveProperty('cachedContentTokenCount');
  });
});

describe('geminiFinishReasonOf()', () => {
  it('says STOP after tool calls too, MAX_TOKENS for max_tokens', () => {
    expect(geminiFinishReasonOf('tool_use')).toBe('STOP');
    expect(geminiFinishReasonOf('end_turn')).toBe('STOP');
    expect(geminiFinishReasonOf('max_tokens')).toBe('MAX_TOKENS');
  });
});

describe('toGenerateContentResponse()', () => {
  it('holds one candidate with thought, text and functionCall parts, and the usage', () => {
    expect(toGenerateContentResponse(message, meta)).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'plan', thought: true, thoughtSignature: 'c2ln' },
              { text: 'A text that is longer than one chunk of the stream.' },
              { functionCall: { id: 'call_a', name: 'write', args: { path: 'a', content: 'x' } } },
            ],
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      usageMetadata: usageMetadataOf(message.usage),
      modelVersion: 'gemini-3-pro-preview',
      responseId: 'scripted-0001',
    });
  });
});

describe('generateContentChunks()', () => {
  it('streams one part per chunk, the finish reason and the usage on the last only', () => {
    const chunks = parse(generateContentChunks(message, meta));
    const parts = chunks.map((chunk) => chunk.candidates[0]?.content.parts);
    expect(parts.every((piece) => piece?.length === 1)).toBe(true);
    const text = chunks
      .flatMap((chunk) => chunk.candidates[0]?.content.parts ?? [])
      .flatMap((part) => ('text' in part && part.thought === undefined ? part.text : []))
      .join('');
    expect(text).toBe('A text that is longer than one chunk of the stream.');
    expect(chunks.at(-1)?.candidates[0]).toMatchObject({
      content: { parts: [{ functionCall: { name: 'write' } }] },
      finishReason: 'STOP',
    });
    expect(chunks.at(-1)?.usageMetadata).toEqual(usageMetadataOf(message.usage));
    expect(chunks.slice(0, -1).some((chunk) => chunk.usageMetadata !== undefined)).toBe(false);
    expect(chunks.every((chunk) => chunk.responseId === 'scripted-0001')).toBe(true);
  });

  it('still sends one chunk with the finish reason for a message without parts', () => {
    const chunks = parse(generateContentChunks({ ...message, content: [] }, meta));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.candidates[0]).toMatchObject({
      content: { parts: [] },
      finishReason: 'STOP',
    });
  });
});

describe('partialGenerateContentChunk()', () => {
  it('is the first piece, without a finish reason or usage', () => {
    const [chunk] = parse([partialGenerateContentChunk(message, meta)]);
    expect(chunk?.candidates[0]).toEqual({
      content: {
        role: 'model',
        parts: [{ text: 'plan', thought: true, thoughtSignature: 'c2ln' }],
      },
      index: 0,
    });
    expect(chunk?.usageMetadata).toBeUndefined();
  });
});
