import { describe, expect, it } from 'vitest';
import { costOfUsage, findModelPrice, parseModelId, priceUsage } from './pricing.js';

describe('parseModelId()', () => {
  it.each([
    ['claude-opus-4-5', 'opus', '4.5'],
    ['claude-opus-4-20250514', 'opus', '4.0'],
    ['claude-opus-4-1-20250805', 'opus', '4.1'],
    ['claude-sonnet-4-5-20250929', 'sonnet', '4.5'],
    ['claude-haiku-4-5', 'haiku', '4.5'],
    ['claude-opus-5-5', 'opus', '5.5'],
    ['claude-sonnet-5', 'sonnet', '5.0'],
    ['claude-3-5-haiku-20241022', 'haiku', '3.5'],
    ['claude-3-7-sonnet-20250219', 'sonnet', '3.7'],
    ['claude-3-opus-20240229', 'opus', '3.0'],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'sonnet', '4.5'],
    ['claude-sonnet-4-5@20250929', 'sonnet', '4.5'],
    ['Claude-Opus-4-6', 'opus', '4.6'],
  ])('reads %s as %s %s', (id, family, version) => {
    expect(parseModelId(id)).toEqual({ family, version });
  });

  it('returns undefined for other models', () => {
    expect(parseModelId('gpt-5')).toBeUndefined();
    expect(parseModelId('<synthetic>')).toBeUndefined();
  });
});

describe('priceUsage()', () => {
  it('prices input, output, cache writes and cache reads per million tokens', () => {
    const usage = {
      inputTokens: 2700,
      outputTokens: 92,
      cacheCreationTokens: 100,
      cacheReadTokens: 900,
    };
    // Claude Code 2.1.329 reported total_cost_usd 0.010125 for exactly this usage.
    expect(priceUsage('claude-sonnet-4-5', usage).cost).toBeCloseTo(0.010125, 12);
    expect(priceUsage('claude-sonnet-4-5', usage).known).toBe(true);
  });

  it.each([
    ['claude-opus-4-6', { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
    ['claude-opus-4-1', { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
    ['claude-opus-5-5', { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 }],
    ['claude-sonnet-4-6', { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
    ['claude-sonnet-5-5', { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 }],
    ['claude-haiku-4-5-20251001', { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
    ['claude-3-5-haiku-20241022', { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
    ['claude-3-haiku-20240307', { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
  ])('knows %s', (id, price) => {
    expect(findModelPrice(id)).toEqual(price);
  });

  it('costs an unknown model 0 and says it is unknown', () => {
    const usage = {
      inputTokens: 1000,
      outputTokens: 1000,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
    };
    expect(priceUsage('claude-opus-4-9', usage)).toEqual({ cost: 0, known: false });
    expect(priceUsage('gpt-5', usage)).toEqual({ cost: 0, known: false });
  });

  it('uses a custom table when given one', () => {
    const table = [
      {
        family: 'opus' as const,
        versions: ['9.9'],
        price: { input: 1, output: 0, cacheWrite: 0, cacheRead: 0 },
      },
    ];
    expect(
      priceUsage(
        'claude-opus-9-9',
        { inputTokens: 1_000_000, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 },
        table,
      ).cost,
    ).toBe(1);
    expect(
      costOfUsage(
        { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 },
        { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 },
      ),
    ).toBe(0);
  });
});
