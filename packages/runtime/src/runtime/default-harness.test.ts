import { defaultModelCatalog } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { loadDefaultHarness } from './default-harness.js';

const settings = {
  autostart: true,
  headless: false,
  ignoreRigFailures: false,
  env: {},
  killGraceMs: 100,
};

describe('loadDefaultHarness()', () => {
  it('loads Claude Code from @hankweave/claude-code when it is installed', async () => {
    const harness = await loadDefaultHarness(settings, defaultModelCatalog);
    expect(harness.name).toBe('claude-code');
  });

  it('says what to install when @hankweave/claude-code is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@hankweave/claude-code'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const failure = loadDefaultHarness(settings, defaultModelCatalog, () =>
      Promise.reject(missing),
    );
    await expect(failure).rejects.toMatchObject({
      code: 'RUNTIME_HARNESS_UNAVAILABLE',
      message: expect.stringContaining('npm install @hankweave/claude-code'),
    });
  });

  it('passes any other load failure through', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(
      loadDefaultHarness(settings, defaultModelCatalog, () => Promise.reject(broken)),
    ).rejects.toBe(broken);
  });
});
