import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDirSync } from '@hankweave/durable-io/testing';
import { hankConfigSchema } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPrompts, renderPromptText } from './prompt-builder.js';

afterEach(cleanupTempDirs);

const paths = { agentRoot: '/exec/agentRoot', dataDir: '/exec/agentRoot/read_only_data_source' };

describe('buildPrompts()', () => {
  it('joins prompt files, keeps the first frontmatter and builds the system append', async () => {
    const hankDir = makeTempDirSync('prompts-').path;
    mkdirSync(join(hankDir, 'p'));
    writeFileSync(
      join(hankDir, 'p/a.md'),
      '---\nname: survey\ntags: [docs, audit]\nauthor: "Ann"\n---\nRead <%DATA_DIR%>.\n<!-- internal note -->\n',
    );
    writeFileSync(
      join(hankDir, 'p/b.md'),
      '---\nname: ignored\n---\nThen write in <%AGENT_ROOT%>.',
    );
    writeFileSync(join(hankDir, 'p/sys.md'), 'Be brief in <%PROJECT_DIR%>.');
    const config = hankConfigSchema.parse({
      meta: { name: 'h', version: '1' },
      globalSystemPromptText: 'Global rules.',
      hank: [
        {
          id: 'a',
          name: 'A',
          model: 'sonnet',
          continuationMode: 'fresh',
          promptFile: ['p/a.md', 'p/b.md'],
          appendSystemPromptFile: 'p/sys.md',
        },
      ],
    });
    const built = await buildPrompts(config, config.hank[0] as never, { hankDir, ...paths });
    expect(built.prompt).toBe(`Read ${paths.dataDir}.\n\n\nThen write in ${paths.agentRoot}.`);
    expect(built.promptMetadata).toEqual({
      name: 'survey',
      tags: ['docs', 'audit'],
      author: 'Ann',
    });
    expect(built.appendSystemPrompt).toBe(`Global rules.\n\nBe brief in ${paths.agentRoot}.`);
  });

  it('appends nothing when there is no system prompt, and names an unreadable prompt file', async () => {
    const config = hankConfigSchema.parse({
      meta: { name: 'h', version: '1' },
      hank: [
        {
          id: 'a',
          name: 'A',
          model: 'sonnet',
          continuationMode: 'fresh',
          promptText: 'Hi <%EXECUTION_DIR%>',
        },
      ],
    });
    const built = await buildPrompts(config, config.hank[0] as never, {
      hankDir: '/nowhere',
      ...paths,
    });
    expect(built).toEqual({ prompt: `Hi ${paths.agentRoot}` });
    const missing = { ...(config.hank[0] as object), promptText: undefined, promptFile: 'gone.md' };
    await expect(
      buildPrompts(config, missing as never, { hankDir: '/nowhere', ...paths }),
    ).rejects.toMatchObject({
      code: 'RUNTIME_PROMPT_UNREADABLE',
      details: { field: 'promptFile', ref: 'gone.md', path: '/nowhere/gone.md' },
    });
  });

  it('names the field, the reference and the absolute path looked for when a prompt is missing', async () => {
    const hankDir = makeTempDirSync('prompts-').path;
    mkdirSync(join(hankDir, 'prompts'));
    const config = hankConfigSchema.parse({
      meta: { name: 'h', version: '1' },
      hank: [
        {
          id: 'a',
          name: 'A',
          model: 'sonnet',
          continuationMode: 'fresh',
          promptFile: 'prompts/x.md',
        },
      ],
    });
    const failure = buildPrompts(config, config.hank[0] as never, { hankDir, ...paths });
    await expect(failure).rejects.toMatchObject({ code: 'RUNTIME_PROMPT_UNREADABLE' });
    await expect(failure).rejects.toThrow(
      `promptFile prompts/x.md not found at ${join(hankDir, 'prompts/x.md')} (relative to the hank directory ${hankDir})`,
    );
    const directory = { ...(config.hank[0] as object), promptFile: 'prompts' };
    await expect(buildPrompts(config, directory as never, { hankDir, ...paths })).rejects.toThrow(
      `promptFile prompts is a directory (${join(hankDir, 'prompts')}), not a file`,
    );
  });
});

describe('renderPromptText()', () => {
  it('strips every HTML comment with its line break', () => {
    expect(renderPromptText('a<!-- x -->\nb<!--\nmulti\n-->c', paths)).toBe('abc');
  });

  // Issue 31: an agent replaced a prompt file with a FIFO and the next codon hung forever.
  it('refuses a prompt file that is a FIFO at once, naming it, instead of blocking', async () => {
    const hankDir = makeTempDirSync('prompts-').path;
    execFileSync('mkfifo', [join(hankDir, 'task.md')]);
    const config = hankConfigSchema.parse({
      meta: { name: 'h', version: '1' },
      globalSystemPromptFile: 'task.md',
      hank: [
        {
          id: 'a',
          name: 'A',
          model: 'sonnet',
          continuationMode: 'fresh',
          promptFile: 'task.md',
        },
      ],
    });
    const started = Date.now();
    const failure = buildPrompts(config, config.hank[0] as never, { hankDir, ...paths });
    await expect(failure).rejects.toMatchObject({ code: 'RUNTIME_PROMPT_UNREADABLE' });
    await expect(failure).rejects.toThrow(
      `promptFile task.md is a FIFO (named pipe) (${join(hankDir, 'task.md')}), not a file`,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
