import { startScriptedModel } from '@hankweave/scripted-model';
import type { SandboxMode } from '../sandbox/containment.js';
import type { ContainmentHarness, ContainmentScript } from '../testing.js';

// The two agents the runtime ships with, for describeContainment: each serves the attack scripts
// from @hankweave/scripted-model over loopback, with a private HOME per case. The sandbox mode can
// be changed with HANKWEAVE_CONTAINMENT_SANDBOX=off to watch the attacks succeed without it.

const mode = (process.env.HANKWEAVE_CONTAINMENT_SANDBOX as SandboxMode | undefined) ?? 'require';

/** Claude Code (the `sonnet` alias), as root with IS_SANDBOX=1 as the runtime's own tests run it. */
export const claudeCodeContainment: ContainmentHarness = {
  name: 'claude-code',
  model: 'sonnet',
  sandbox: mode,
  async serve(script: ContainmentScript) {
    const model = await startScriptedModel({ script });
    return { options: { anthropicBaseUrl: model.url }, close: () => model.close() };
  },
  env: (home) => ({
    ...process.env,
    HOME: home,
    CLAUDE_CONFIG_DIR: `${home}/.claude`,
    ANTHROPIC_API_KEY: 'sk-scripted-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    IS_SANDBOX: '1',
  }),
};

/** Pi (`gpt-5.2`, OpenAI's Responses API on the scripted model), its own retries off. */
export const piContainment: ContainmentHarness = {
  name: 'pi',
  model: 'gpt-5.2',
  sandbox: mode,
  async serve(script: ContainmentScript) {
    const model = await startScriptedModel({ script });
    return {
      options: { piBaseUrl: `${model.url}/v1`, piRetries: false },
      close: () => model.close(),
    };
  },
  env: (home) => ({ ...process.env, HOME: home, OPENAI_API_KEY: 'sk-scripted-dummy' }),
};
