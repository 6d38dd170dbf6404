import { describe, expect, it } from 'vitest';
import { sentinelConfigSchema } from '../index.js';

const base = {
  id: 'reviewer',
  name: 'Reviewer',
  model: 'anthropic/claude-haiku-4-5',
  trigger: {
    type: 'event',
    on: ['tool.result'],
    conditions: [{ path: 'isError', operator: 'equals', value: true }],
  },
  execution: { strategy: 'count', threshold: 5 },
  userPromptText: 'Review <%= it.events.length %> events',
};

describe('sentinelConfigSchema', () => {
  it('accepts structured output declared as a JSON Schema object', () => {
    const config = sentinelConfigSchema.parse({
      ...base,
      structuredOutput: {
        output: 'object',
        schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
    });
    expect(config.structuredOutput?.schema).toMatchObject({ type: 'object' });
  });

  it('refuses schemaStr: a config file never carries code to evaluate', () => {
    const result = sentinelConfigSchema.safeParse({
      ...base,
      structuredOutput: { output: 'object', schemaStr: 'z.object({ ok: z.boolean() })' },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain('structuredOutput');
  });

  it.each([
    [{ ...base, id: 'Bad Id' }, 'id'],
    [{ ...base, userPromptText: undefined }, 'userPromptText'],
    [
      { ...base, conversational: { trimmingStrategy: { type: 'maxTurns', maxTurns: 5 } } },
      'conversational',
    ],
    [{ ...base, structuredOutput: { output: 'enum' } }, 'structuredOutput.enumValues'],
    [{ ...base, execution: { strategy: 'debounce', milliseconds: 0 } }, 'execution.milliseconds'],
  ])('rejects an invalid config and names the field (%#)', (config, path) => {
    const result = sentinelConfigSchema.safeParse(config);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });
});
