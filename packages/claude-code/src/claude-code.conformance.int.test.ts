import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { detectSandbox } from '@hankweave/harness';
import {
  type ConformanceRig,
  type ConformanceScript,
  describeHarnessConformance,
} from '@hankweave/harness/testing';
import { type ScriptedModel, startScriptedModel } from '@hankweave/scripted-model';
import { ClaudeCodeHarness } from './index.js';

// The agent spec's conformance cases (written once in @hankweave/harness/testing) for Claude Code:
// the real agent against @hankweave/scripted-model over loopback, with a private HOME, cwd and log
// directory per case, in the OS sandbox.

let logCounter = 0;

async function claudeCodeRig(): Promise<ConformanceRig> {
  const dir = await makeTempDir('hw-claude-conformance-');
  const home = join(dir.path, 'home');
  const cwd = join(dir.path, 'agentRoot');
  const tmp = join(dir.path, 'tmp');
  await Promise.all([mkdir(home), mkdir(cwd), mkdir(tmp)]);
  const models: ScriptedModel[] = [];
  // In the OS sandbox, as the runtime runs every agent: the working directory is the one place
  // it may write (with the agent's own config directory, which the adapter adds).
  const sandbox = await detectSandbox();
  if (!sandbox.available) throw new Error(`No sandbox: ${sandbox.reason}; ${sandbox.hint}`);
  return {
    harness: new ClaudeCodeHarness({
      allowRootSandbox: true,
      baseEnv: {
        PATH: process.env.PATH,
        HOME: home,
        TMPDIR: tmp,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        ANTHROPIC_API_KEY: 'sk-scripted-dummy',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    }),
    async serve(script: ConformanceScript) {
      const model = await startScriptedModel({ script });
      models.push(model);
      return {
        // The codon env wins over the harness's: it points this start at this case's model.
        // Without the agent's own retries, an API error ends the run in about a second.
        env: { ANTHROPIC_BASE_URL: model.url, CLAUDE_CODE_MAX_RETRIES: '0' },
        requests: () => model.requests,
      };
    },
    startOptions: (overrides = {}) => ({
      codonId: 'codon#0',
      runId: 'run-conformance',
      model: 'claude-sonnet-4-5',
      prompt: 'Do the task.',
      cwd,
      logPath: join(dir.path, 'runs', `codon#0-${++logCounter}-claude.log`),
      idleTimeoutMs: 60_000,
      sandbox: { bubblewrap: sandbox.path, writable: [cwd], readable: [dir.path] },
      ...overrides,
    }),
    async dispose() {
      await Promise.all(models.map((model) => model.close()));
      await dir.cleanup();
    },
  };
}

describeHarnessConformance('claude-code', claudeCodeRig);
