import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { writePiAgentDir } from './pi-agent-dir.js';

const model = { provider: 'openai', model: 'gpt-5.2' };

describe('writePiAgentDir()', () => {
  it('points the provider at its base URL with the key variable, retries and compaction set', async () => {
    const root = await makeTempDir('hw-pi-dir-');
    try {
      const dir = await writePiAgentDir({
        root: root.path,
        model,
        baseUrl: 'http://127.0.0.1:9/v1',
        keyVariable: 'OPENAI_API_KEY',
        autoCompact: false,
        retries: false,
        appendSystemPrompt: 'Be brief.',
      });
      const models = JSON.parse(await readFile(join(dir.configDir, 'models.json'), 'utf8'));
      // openai is one of Pi's own providers: only its base URL and key are overridden.
      expect(models).toEqual({
        providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'OPENAI_API_KEY' } },
      });
      const settings = JSON.parse(await readFile(join(dir.configDir, 'settings.json'), 'utf8'));
      expect(settings).toMatchObject({
        compaction: { enabled: false },
        retry: { enabled: false, provider: { maxRetries: 0 } },
      });
      expect(await readFile(dir.appendSystemPromptFile as string, 'utf8')).toBe('Be brief.');
      expect(dir.sessionDir).toBe(join(root.path, 'sessions'));
      await dir.remove();
      await expect(stat(dir.configDir)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await stat(dir.sessionDir)).isDirectory()).toBe(true);
    } finally {
      await root.cleanup();
    }
  });

  it("writes no models.json without a base URL, so Pi's own provider table applies", async () => {
    const root = await makeTempDir('hw-pi-dir-');
    try {
      const first = await writePiAgentDir({ root: root.path, model, retries: true });
      const second = await writePiAgentDir({ root: root.path, model, retries: true });
      expect(first.configDir).not.toBe(second.configDir);
      await expect(stat(join(first.configDir, 'models.json'))).rejects.toMatchObject({
        code: 'ENOENT',
      });
      const settings = JSON.parse(await readFile(join(first.configDir, 'settings.json'), 'utf8'));
      expect(settings).toEqual({ quietStartup: true });
      expect(first.appendSystemPromptFile).toBeUndefined();
    } finally {
      await root.cleanup();
    }
  });
});
