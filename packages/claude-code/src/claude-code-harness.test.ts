import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import type { AgentStartOptions } from '@hankweave/harness';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeCodeHarness } from './claude-code-harness.js';

async function startOptions(
  overrides: Partial<AgentStartOptions> = {},
): Promise<AgentStartOptions> {
  const dir = (await makeTempDir('hw-cch-')).path;
  return {
    codonId: 'c#0',
    runId: 'r',
    model: 'm',
    prompt: 'p',
    cwd: dir,
    logPath: join(dir, 'log'),
    ...overrides,
  };
}

// Failures before anything runs; the real agent's runs are in claude-code-harness.int.test.ts.
describe('ClaudeCodeHarness.start()', () => {
  afterEach(cleanupTempDirs);

  it('fails with HARNESS_ROOT_NOT_ALLOWED as root without permission, before spawning', async () => {
    const harness = new ClaudeCodeHarness({
      isRoot: true,
      allowRootSandbox: false,
      claudePath: '/nope',
    });
    await expect(harness.start(await startOptions())).rejects.toMatchObject({
      code: 'HARNESS_ROOT_NOT_ALLOWED',
    });
  });

  it('fails with HARNESS_BINARY_NOT_FOUND for a missing binary', async () => {
    const harness = new ClaudeCodeHarness({ isRoot: false, claudePath: '/nope/claude' });
    await expect(harness.start(await startOptions())).rejects.toMatchObject({
      code: 'HARNESS_BINARY_NOT_FOUND',
    });
  });

  it('fails with HARNESS_INVALID_OPTIONS when cwd is not a directory', async () => {
    const harness = new ClaudeCodeHarness({ isRoot: false });
    await expect(
      harness.start(await startOptions({ cwd: '/nonexistent/agentRoot' })),
    ).rejects.toMatchObject({
      code: 'HARNESS_INVALID_OPTIONS',
    });
  });

  it('fails with HARNESS_SPAWN_FAILED when the binary cannot be executed', async () => {
    const dir = (await makeTempDir('hw-cch-')).path;
    const broken = join(dir, 'claude');
    // Big enough not to look like the placeholder; its interpreter does not exist.
    await writeFile(broken, `#!/nonexistent/interpreter\n# ${'x'.repeat(5000)}\n`);
    await chmod(broken, 0o755);
    const harness = new ClaudeCodeHarness({ isRoot: false, claudePath: broken });
    await expect(harness.start(await startOptions())).rejects.toMatchObject({
      code: 'HARNESS_SPAWN_FAILED',
    });
  });

  it('fails with HARNESS_LOG_WRITE_FAILED when the log cannot be opened', async () => {
    const options = await startOptions();
    await writeFile(join(options.cwd, 'file'), '');
    const harness = new ClaudeCodeHarness({ isRoot: false });
    await expect(
      harness.start({ ...options, logPath: join(options.cwd, 'file', 'x.log') }),
    ).rejects.toMatchObject({
      code: 'HARNESS_LOG_WRITE_FAILED',
    });
  });
});
