import { describe, expect, it } from 'vitest';
import { createModelCatalog } from './model-catalog.js';
import { MODEL_CATALOG } from './model-catalog-data.js';
import { providerKeyNames } from './provider-keys.js';
import { selectHarness } from './select-harness.js';

describe('selectHarness()', () => {
  it.each([
    ['sonnet', 'anthropic', 'claude-sonnet-5-5'],
    ['claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['anthropic/claude-haiku-4-5', 'anthropic', 'claude-haiku-4-5'],
    ['claude-sonnet-4-20250514', 'anthropic', 'claude-sonnet-4-20250514'],
    [
      'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      'anthropic',
      'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    ],
    [
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'anthropic',
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
    ],
    ['claude-sonnet-4-5@20250929', 'anthropic', 'claude-sonnet-4-5@20250929'],
  ])('runs %s on Claude Code', (id, provider, model) => {
    expect(selectHarness(id)).toEqual({ harness: 'claude-code', provider, model, forced: false });
  });

  it.each([
    ['gpt-5.2', 'openai', 'gpt-5.2'],
    ['openai/gpt-5.2', 'openai', 'gpt-5.2'],
    ['o3', 'openai', 'o3'],
    ['gemini-3-pro-preview', 'google', 'gemini-3-pro-preview'],
    ['google/gemini-3-pro-preview', 'google', 'gemini-3-pro-preview'],
    ['openrouter/moonshotai/kimi-k3', 'openrouter', 'moonshotai/kimi-k3'],
    ['zai/glm-4.6', 'zai', 'glm-4.6'],
    ['kimi-k3', 'unknown', 'kimi-k3'],
  ])('runs %s on Pi (provider %s)', (id, provider, model) => {
    expect(selectHarness(id)).toMatchObject({ harness: 'pi', provider, model, forced: false });
  });

  it.each([
    ['pi/anthropic/claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['pi/anthropic/sonnet', 'anthropic', 'claude-sonnet-5-5'],
    ['pi/openai/gpt-5.2', 'openai', 'gpt-5.2'],
    ['PI/google/gemini-3-pro-preview', 'google', 'gemini-3-pro-preview'],
    ['opencode/openai/gpt-5.2', 'openai', 'gpt-5.2'],
    ['opencode/anthropic/claude-opus-4-5', 'anthropic', 'claude-opus-4-5'],
  ])('forces Pi for %s', (id, provider, model) => {
    expect(selectHarness(id)).toMatchObject({ harness: 'pi', provider, model, forced: true });
  });

  it.each([
    ['opus-xhigh', 'claude-code', 'claude-opus-5-5', 'xhigh'],
    ['claude-opus-4-5-high', 'claude-code', 'claude-opus-4-5', 'high'],
    ['gpt-5.2-xhigh', 'pi', 'gpt-5.2', 'xhigh'],
    ['gemini-3-pro-preview-HIGH', 'pi', 'gemini-3-pro-preview', 'high'],
    ['pi/openai/gpt-5.2-high', 'pi', 'gpt-5.2', 'high'],
  ])('splits the effort suffix off %s', (id, harness, model, effort) => {
    expect(selectHarness(id)).toMatchObject({ harness, model, effort });
  });

  it('gives OpenAI models on Pi the effort high by default, and no one else', () => {
    expect(selectHarness('gpt-5.2').effort).toBe('high');
    expect(selectHarness('pi/openai/gpt-5.2').effort).toBe('high');
    expect(selectHarness('gemini-3-pro-preview')).not.toHaveProperty('effort');
    expect(selectHarness('sonnet')).not.toHaveProperty('effort');
    expect(selectHarness('pi/anthropic/sonnet')).not.toHaveProperty('effort');
  });

  it('expands aliases with the catalog it is given', () => {
    const haikuOnly = createModelCatalog(MODEL_CATALOG.filter((entry) => entry.family === 'haiku'));
    expect(selectHarness(' haiku ', haikuOnly)).toEqual({
      harness: 'claude-code',
      provider: 'anthropic',
      model: 'claude-haiku-5-5',
      forced: false,
    });
  });
});

describe('providerKeyNames()', () => {
  it.each([
    ['anthropic', ['ANTHROPIC_API_KEY']],
    ['openai', ['OPENAI_API_KEY']],
    ['google', ['GEMINI_API_KEY']],
    ['OpenRouter', ['OPENROUTER_API_KEY']],
    ['zai', ['ZAI_API_KEY']],
    ['deepseek', ['DEEPSEEK_API_KEY']],
    ['groq', ['GROQ_API_KEY']],
    ['azure-openai-responses', ['AZURE_OPENAI_API_KEY']],
    ['moonshotai', ['MOONSHOT_API_KEY']],
    ['amazon-bedrock', []],
    ['ollama', []],
    ['unknown', []],
    ['constructor', []],
  ])('names the key variables of %s', (provider, names) => {
    expect(providerKeyNames(provider)).toEqual(names);
  });

  it('names a key for the provider of every catalog row, but those that sign in another way', () => {
    // Bedrock and Vertex use their cloud's credentials, Copilot and Codex a login.
    const signIn = ['amazon-bedrock', 'github-copilot', 'google-vertex', 'openai-codex'];
    for (const entry of MODEL_CATALOG) {
      const { provider } = selectHarness(`pi/${entry.provider}/${entry.id}`);
      expect(provider).toBe(entry.provider);
      if (!signIn.includes(provider)) expect(providerKeyNames(provider)).not.toEqual([]);
    }
  });
});
