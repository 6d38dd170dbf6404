// The runtime of a kill test's child process: the built package on a hank directory and an
// execution directory, its agents pointed at `modelUrl` with a private HOME (headless).
import { join } from 'node:path';
import { createRuntime } from '../dist/index.js';

export function childRuntime({ hankDir, executionDir, home, modelUrl }) {
  return createRuntime({
    hankPath: join(hankDir, 'hank.json'),
    dataPath: join(hankDir, 'data'),
    executionDir,
    anthropicBaseUrl: modelUrl,
    headless: true,
    env: {
      ...process.env,
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      ANTHROPIC_API_KEY: 'sk-dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
      IS_SANDBOX: '1',
    },
  });
}
