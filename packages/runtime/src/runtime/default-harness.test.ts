import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import type { AgentStartOptions } from '@hankweave/harness';
import { FakeHarness } from '@hankweave/harness/testing';
import { defaultModelCatalog } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  claudeCodeLoader,
  defaultHarnessLoaders,
  installedHarnesses,
  loadDefaultHarness,
  piAgentDir,
  piLoader,
} from './default-harness.js';

const settings = {
  autostart: true,
  headless: false,
  ignoreRigFailures: false,
  env: {},
  killGraceMs: 100,
  sandbox: 'auto' as const,
  fileWatch: { enabled: false, minFiles: 0, settleTimeoutMs: 2000 },
};

const notInstalled = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' });

describe('loadDefaultHarness()', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let startCount = 0;
  beforeEach(async () => {
    dir = await makeTempDir('hw-default-harness-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });
  const startOptions = (model: string): AgentStartOptions => ({
    codonId: 'write#0',
    runId: 'run-1',
    model,
    prompt: 'Do it.',
    cwd: dir.path,
    logPath: join(dir.path, `write#0-${++startCount}-claude.log`),
  });

  it('loads Claude Code and Pi from their packages when both are installed', async () => {
    const loaders = defaultHarnessLoaders(settings, defaultModelCatalog, dir.path);
    const harness = await loadDefaultHarness(defaultModelCatalog, loaders);
    expect(harness.name).toBe('claude-code+pi');
  });

  it('finds which adapters are installed without loading them', () => {
    expect(installedHarnesses()).toEqual(['claude-code', 'pi']);
    const onlyClaude = (name: string) => {
      if (name === '@hankweave/pi') throw notInstalled(name);
      return `/x/${name}`;
    };
    expect(installedHarnesses(onlyClaude)).toEqual(['claude-code']);
  });

  it('gives Pi the execution-level agent directory, the base URL, env, kill grace and retries', async () => {
    const seen: unknown[] = [];
    const fakePi = {
      createPiHarness: (options: unknown) => {
        seen.push(options);
        return new FakeHarness();
      },
    } as unknown as typeof import('@hankweave/pi');
    const withUrl = {
      ...settings,
      piBaseUrl: 'http://127.0.0.1:9/v1',
      piRetries: false,
      piApi: 'openai-completions',
      env: { PATH: '/bin' },
    };
    const agentDir = piAgentDir(join(dir.path, '.hankweave'));
    await piLoader(withUrl, defaultModelCatalog, agentDir, async () => fakePi)();
    expect(agentDir).toBe(join(dir.path, '.hankweave', 'pi'));
    expect(seen).toEqual([
      {
        agentDir,
        baseUrl: 'http://127.0.0.1:9/v1',
        baseEnv: { PATH: '/bin' },
        killGraceMs: 100,
        models: defaultModelCatalog,
        retries: false,
        api: 'openai-completions',
      },
    ]);
  });

  it('says what to install when no adapter is installed', async () => {
    const failure = loadDefaultHarness(defaultModelCatalog, {
      'claude-code': () => Promise.reject(notInstalled('@hankweave/claude-code')),
      pi: piLoader(settings, defaultModelCatalog, dir.path, () =>
        Promise.reject(notInstalled('@hankweave/pi')),
      ),
    });
    await expect(failure).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
      message: expect.stringContaining('@hankweave/pi'),
    });
  });

  it('says what to install when @hankweave/claude-code is missing', async () => {
    const missing = notInstalled('@hankweave/claude-code');
    const failure = loadDefaultHarness(defaultModelCatalog, {
      'claude-code': claudeCodeLoader(settings, defaultModelCatalog, () => Promise.reject(missing)),
    });
    await expect(failure).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
      message: expect.stringContaining('npm install @hankweave/claude-code'),
      cause: missing,
    });
  });

  it('passes any other load failure through', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(
      loadDefaultHarness(defaultModelCatalog, {
        'claude-code': claudeCodeLoader(settings, defaultModelCatalog, () =>
          Promise.reject(broken),
        ),
      }),
    ).rejects.toBe(broken);
  });

  it('starts each model on the adapter selectHarness picks', async () => {
    const claude = new FakeHarness();
    const pi = new FakeHarness();
    const harness = await loadDefaultHarness(defaultModelCatalog, {
      'claude-code': async () => claude,
      pi: async () => pi,
    });
    expect(harness.name).toBe('claude-code+pi');
    for (const model of ['sonnet', 'gpt-5.2', 'pi/anthropic/claude-haiku-4-5', 'opus-xhigh']) {
      await (await harness.start(startOptions(model))).outcome;
    }
    expect(claude.starts.map((start) => start.model)).toEqual(['sonnet', 'opus-xhigh']);
    // The adapter gets the model id as the hank wrote it; it reads the selection itself.
    expect(pi.starts.map((start) => start.model)).toEqual([
      'gpt-5.2',
      'pi/anthropic/claude-haiku-4-5',
    ]);
  });

  it('fails a start whose model needs the Pi adapter when it is not installed', async () => {
    const claude = new FakeHarness();
    const harness = await loadDefaultHarness(defaultModelCatalog, {
      'claude-code': async () => claude,
      pi: () => Promise.reject(notInstalled('@hankweave/pi')),
    });
    expect(harness.name).toBe('claude-code');
    const failure = harness.start(startOptions('gemini-3-pro-preview'));
    await expect(failure).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
      details: { model: 'gemini-3-pro-preview', harness: 'pi', provider: 'google' },
    });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('"gemini-3-pro-preview" is a google model');
    expect(message).toContain('Pi harness, which is not installed');
    expect(message).toContain('npm install @hankweave/pi');
    expect(message).toContain('"sonnet"');
    await expect(harness.start(startOptions('pi/openai/gpt-5.2'))).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
      message: expect.stringContaining('asks for the Pi harness'),
    });
    expect(claude.starts).toEqual([]);
  });

  it('without Pi loaded by default, fails a non-Anthropic codon and still runs Claude ones', async () => {
    const claude = new FakeHarness();
    const harness = await loadDefaultHarness(defaultModelCatalog, {
      'claude-code': async () => claude,
    });
    await expect(harness.start(startOptions('gpt-5.2'))).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
    });
    await (await harness.start(startOptions('haiku'))).outcome;
    expect(claude.starts).toHaveLength(1);
  });

  it('runs Pi models when only Pi is installed, and says to install Claude Code for the rest', async () => {
    const pi = new FakeHarness();
    const harness = await loadDefaultHarness(defaultModelCatalog, {
      'claude-code': () => Promise.reject(notInstalled('@hankweave/claude-code')),
      pi: async () => pi,
    });
    await (await harness.start(startOptions('gpt-5.2'))).outcome;
    expect(pi.starts).toHaveLength(1);
    await expect(harness.start(startOptions('sonnet'))).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
      message: expect.stringContaining('npm install @hankweave/claude-code'),
    });
  });
});
