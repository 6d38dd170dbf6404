// The environment of the real Claude Code in a bench: a private HOME and config directory, a
// dummy key for the scripted model, no retries, no traffic besides the model.
import { join } from 'node:path';

export const agentEnvOf = (home) => ({
  ...process.env,
  HOME: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  ANTHROPIC_API_KEY: 'sk-scripted-dummy',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  CLAUDE_CODE_MAX_RETRIES: '0',
  IS_SANDBOX: '1',
});
