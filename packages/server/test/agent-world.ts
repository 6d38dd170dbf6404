import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, type Runtime } from '@hankweave/runtime';
import { type ScriptedModel, startScriptedModel } from '@hankweave/scripted-model';

export const EXAMPLE_DIR = fileURLToPath(new URL('../../../examples/hello-hank/', import.meta.url));

/** A tmp copy of a hank and a scripted model for the real Claude Code agent to talk to. */
export interface AgentWorld {
  hankDir: string;
  model: ScriptedModel;
  /** A runtime of this hank on the real agent (the runtime's default harness), not started. */
  runtime(options?: { autostart?: boolean }): Runtime;
  close(): Promise<void>;
}

/**
 * Copies the example hank (with `hank` as its hank.json when given) into a tmp dir and starts the
 * scripted model on the example's script (or on `script`). The agent gets a private HOME and a
 * dummy key.
 */
export async function makeAgentWorld(
  options: { hank?: unknown; script?: unknown } = {},
): Promise<AgentWorld> {
  const root = mkdtempSync(join(tmpdir(), 'server-agent-'));
  const hankDir = join(root, 'hank');
  cpSync(EXAMPLE_DIR, hankDir, { recursive: true });
  if (options.hank)
    writeFileSync(join(hankDir, 'hank.json'), JSON.stringify(options.hank, null, 2));
  const script =
    options.script ?? JSON.parse(readFileSync(join(hankDir, 'model-script.json'), 'utf8'));
  const model = await startScriptedModel({ script });
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_API_KEY: 'sk-scripted-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    IS_SANDBOX: '1',
  };
  return {
    hankDir,
    model,
    runtime: (runtimeOptions = {}) =>
      createRuntime({
        hankPath: join(hankDir, 'hank.json'),
        dataPath: join(hankDir, 'data'),
        executionBaseDir: join(root, 'executions'),
        anthropicBaseUrl: model.url,
        env,
        headless: true,
        ...runtimeOptions,
      }),
    async close() {
      await model.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
