import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, runCli, type Sandbox, stripAnsi } from './cli-harness.js';

/** A loopback port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the preflight of a run, and the model check of validate', () => {
  let sandbox: Sandbox;
  /** The sandbox's env without any Anthropic credential, with an empty Claude config dir. */
  let bare: NodeJS.ProcessEnv;

  beforeAll(() => {
    sandbox = createSandbox();
    const config = join(sandbox.root, 'empty-claude-config');
    mkdirSync(config);
    bare = { ...sandbox.env, CLAUDE_CONFIG_DIR: config };
    for (const name of Object.keys(bare)) {
      if (/^(HANKWEAVE_)?(ANTHROPIC_|CLAUDE_CODE_)/.test(name)) delete bare[name];
    }
  });
  afterAll(() => sandbox.cleanup());

  /** A copy of the example whose codons all use `model`. */
  const exampleWithModel = (name: string, model: string) => {
    const example = sandbox.copyExample(name);
    const path = join(example.hankDir, 'hank.json');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replaceAll('"model": "sonnet"', `"model": "${model}"`),
    );
    return example;
  };

  it('fails a run without credentials before any execution exists, naming what to do', async () => {
    const { hankDir, dataDir } = sandbox.copyExample('no-credentials');
    const result = await runCli([hankDir, dataDir, '--headless'], { env: bare });
    const stderr = stripAnsi(result.stderr);
    expect(result.code).toBe(1);
    expect(stderr).toContain('ANTHROPIC_API_KEY');
    expect(stderr).toContain('claude login');
    expect(stderr).toContain('--scripted-model');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(sandbox.baseDir)).toBe(false);
  });

  it('fails fast when the API does not answer (a closed loopback port)', async () => {
    const { hankDir, dataDir } = sandbox.copyExample('unreachable');
    const port = await closedPort();
    const started = Date.now();
    const result = await runCli(
      [hankDir, dataDir, '--headless', '--anthropic-base-url', `http://127.0.0.1:${port}`],
      { env: { ...bare, ANTHROPIC_API_KEY: 'sk-not-used' } },
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    const stderr = stripAnsi(result.stderr);
    expect(result.code).toBe(1);
    expect(stderr).toContain(`127.0.0.1:${port}`);
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr).toContain('--scripted-model');
    expect(existsSync(sandbox.baseDir)).toBe(false);
  });

  it.each([
    ['sonet', 'Did you mean "sonnet"?'],
    ['claude-sonnet-9-9', 'Did you mean "sonnet"?'],
  ])('refuses the model %s at validate, at --validate and at a run: %s', async (model, says) => {
    const { hankDir, dataDir } = exampleWithModel(`model-${model}`, model);
    for (const args of [
      ['validate', hankDir],
      ['--validate', hankDir],
      [hankDir, dataDir],
    ]) {
      const result = await runCli(args, { env: bare });
      expect(result.code).toBe(1);
      const stderr = stripAnsi(result.stderr);
      expect(stderr).toContain('hank[0].model');
      expect(stderr).toContain(says);
    }
    const json = JSON.parse((await runCli(['validate', hankDir, '--json'], { env: bare })).stdout);
    expect(json.errors[0]).toMatchObject({ path: 'hank[0].model', code: 'unknown_model' });
    expect(existsSync(sandbox.baseDir)).toBe(false);
  });

  it.each([
    ['gpt-5.2', 'OPENAI_API_KEY'],
    ['gemini-3-pro-preview', 'GEMINI_API_KEY'],
  ])(
    'accepts %s (the Pi harness is installed) and, without a key, names %s before creating anything',
    async (model, key) => {
      const { hankDir, dataDir } = exampleWithModel(`pi-model-${model}`, model);
      expect((await runCli(['validate', hankDir], { env: bare })).code).toBe(0);
      const result = await runCli([hankDir, dataDir], { env: bare });
      expect(result.code).toBe(1);
      const stderr = stripAnsi(result.stderr);
      expect(stderr).toContain(key);
      expect(stderr).toContain('--scripted-model');
      expect(existsSync(sandbox.baseDir)).toBe(false);
    },
  );

  it('refuses a run whose --model override is unknown', async () => {
    const { hankDir, dataDir } = sandbox.copyExample('model-flag');
    const result = await runCli([hankDir, dataDir, '-m', 'opuss'], { env: bare });
    expect(result.code).toBe(1);
    expect(stripAnsi(result.stderr)).toContain('Did you mean "opus"?');
  });
});
