import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScript, parseScript } from './load-script.js';
import { buildScriptJsonSchema } from './script-json-schema.js';

const packageFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

describe('parseScript()', () => {
  it('applies defaults', () => {
    const script = parseScript({ conversations: [{ turns: [{ content: [{ text: 'hi' }] }] }] });
    expect(script.sideReply).toBe('OK');
    expect(script.conversations[0]?.turns[0]).toMatchObject({
      usage: {
        inputTokens: 1,
        outputTokens: 1,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
      },
    });
  });

  it.each([
    ['no conversations', { conversations: [] }],
    ['an unknown content block', { conversations: [{ turns: [{ content: [{ image: 'x' }] }] }] }],
    ['an empty turn', { conversations: [{ turns: [{}] }] }],
    [
      'times without fail',
      { conversations: [{ turns: [{ times: 2, content: [{ text: 'x' }] }] }] },
    ],
    [
      'finite times without content',
      { conversations: [{ turns: [{ fail: { kind: 'overloaded' }, times: 1 }] }] },
    ],
    ['an unknown failure kind', { conversations: [{ turns: [{ fail: { kind: 'teapot' } }] }] }],
    ['an unknown key', { conversations: [{ turns: [{ content: [{ text: 'x' }] }] }], extra: 1 }],
  ])('rejects %s with SCRIPTED_MODEL_INVALID_SCRIPT', (_name, value) => {
    expect(() => parseScript(value)).toThrow(
      expect.objectContaining({ code: 'SCRIPTED_MODEL_INVALID_SCRIPT' }),
    );
  });
});

describe('loadScript()', () => {
  it('reads and validates the shipped example', async () => {
    const script = await loadScript(packageFile('examples/write-file.script.json'));
    expect(script.conversations[0]?.name).toBe('write-file');
  });

  it('throws SCRIPTED_MODEL_SCRIPT_UNREADABLE for a missing file', async () => {
    await expect(loadScript(packageFile('examples/missing.json'))).rejects.toMatchObject({
      code: 'SCRIPTED_MODEL_SCRIPT_UNREADABLE',
    });
  });
});

describe('buildScriptJsonSchema()', () => {
  it('matches the shipped schemas/script.schema.json', async () => {
    const shipped = JSON.parse(await readFile(packageFile('schemas/script.schema.json'), 'utf8'));
    expect(shipped).toEqual(buildScriptJsonSchema());
  });

  it('names the shared parts in $defs', () => {
    expect(Object.keys(buildScriptJsonSchema().$defs as object).sort()).toEqual([
      'ContentBlock',
      'Conversation',
      'Failure',
      'Turn',
      'Usage',
      'When',
    ]);
  });
});
