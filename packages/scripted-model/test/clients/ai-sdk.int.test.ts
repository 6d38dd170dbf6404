import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, Output, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedModel } from '../../src/index.js';

const verdictSchema = z.object({ verdict: z.enum(['pass', 'fail']), reasons: z.array(z.string()) });
const verdict = { verdict: 'fail', reasons: ['tests are red'] };

// The Vercel AI SDK's Anthropic provider (how sentinels call models) against the same server.
describe('Vercel AI SDK client', () => {
  it('gets the scripted text and usage from generateText', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          {
            match: { marker: 'SUMMARY' },
            turns: [
              { content: [{ text: 'All good.' }], usage: { inputTokens: 42, outputTokens: 3 } },
            ],
          },
        ],
      },
    });
    const anthropic = createAnthropic({ baseURL: `${model.url}/v1`, apiKey: 'x' });
    const result = await generateText({
      model: anthropic('claude-haiku-4-5'),
      prompt: 'SUMMARY of the run',
      maxRetries: 0,
    });
    expect(result.text).toBe('All good.');
    expect(result.usage).toMatchObject({ inputTokens: 42, outputTokens: 3 });
  });

  it.each([
    ['a forced json tool call', 'jsonTool'],
    ['native structured output (JSON text)', 'outputFormat'],
  ] as const)('gets the scripted object through %s', async (_name, structuredOutputMode) => {
    await using model = await startScriptedModel({
      script: { conversations: [{ turns: [{ content: [{ object: verdict }] }] }] },
    });
    const anthropic = createAnthropic({ baseURL: `${model.url}/v1`, apiKey: 'x' });
    const result = await generateText({
      model: anthropic('claude-sonnet-4-5'),
      prompt: 'Judge the run.',
      output: Output.object({ schema: verdictSchema }),
      providerOptions: { anthropic: { structuredOutputMode } },
      maxRetries: 0,
    });
    expect(result.output).toEqual(verdict);
    const body = model.requests[0]?.body as Record<string, unknown>;
    if (structuredOutputMode === 'jsonTool') {
      expect(body.tools).toMatchObject([{ name: 'json' }]);
    } else {
      expect(body.output_config).toMatchObject({ format: { type: 'json_schema' } });
    }
  });

  it('streams text with streamText', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          { turns: [{ content: [{ text: 'a streamed answer that spans several deltas' }] }] },
        ],
      },
    });
    const anthropic = createAnthropic({ baseURL: `${model.url}/v1`, apiKey: 'x' });
    const result = streamText({
      model: anthropic('claude-sonnet-4-5'),
      prompt: 'stream please',
      maxRetries: 0,
    });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('a streamed answer that spans several deltas');
  });
});
