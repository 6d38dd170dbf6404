import type { HankConfig } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { checkDryRunModels } from './dry-run-models.js';

const hankOf = (...models: string[]): HankConfig =>
  ({
    meta: { name: 'h', version: '1' },
    hank: [
      { id: 'first', name: 'First', model: models[0] },
      {
        type: 'loop',
        id: 'loop',
        codons: models.slice(1).map((model, i) => ({ id: `c${i}`, model })),
      },
    ],
  }) as unknown as HankConfig;

describe('checkDryRunModels()', () => {
  it('lets through every family the scripted model answers', () => {
    const served = [
      'sonnet',
      'gpt-5.2',
      'gemini-3-pro-preview',
      'pi/openrouter/moonshotai/kimi-k2',
      'pi/anthropic/claude-sonnet-4-5',
      'pi/mistral/mistral-large-latest',
      'pi/azure-openai-responses/gpt-5.2',
    ];
    expect(() => checkDryRunModels(hankOf(...served))).not.toThrow();
  });

  it('names each codon whose Pi family it cannot answer, loops included', () => {
    const run = () =>
      checkDryRunModels(hankOf('sonnet', 'pi/amazon-bedrock/amazon.nova-pro-v1:0', 'gpt-5.2'));
    expect(run).toThrow(
      /c0 \(pi\/amazon-bedrock\/amazon\.nova-pro-v1:0: bedrock-converse-stream\)/,
    );
    expect(run).toThrow(
      expect.objectContaining({ code: 'CLI_USAGE', hint: expect.stringContaining('--model') }),
    );
  });

  it('judges the -m/--model override instead of the codons own models', () => {
    const bedrock = hankOf('pi/amazon-bedrock/amazon.nova-pro-v1:0');
    expect(() => checkDryRunModels(bedrock, 'sonnet')).not.toThrow();
    expect(() =>
      checkDryRunModels(hankOf('sonnet'), 'pi/google-vertex/gemini-3-pro-preview'),
    ).toThrow(/first/);
  });
});
