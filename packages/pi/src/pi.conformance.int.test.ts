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
import { createPiHarness } from './index.js';

// The agent spec's conformance cases (written once in @hankweave/harness/testing) for Pi: the real
// Pi CLI (gpt-5.2, so OpenAI's Responses API) against @hankweave/scripted-model over loopback, with a private
// HOME, cwd and log directory per case. Pi's own retries are off, as Claude Code's are in its rig,
// so an API error ends the run at once.

let logCounter = 0;

async function piRig(): Promise<ConformanceRig> {
  const dir = await makeTempDir('hw-pi-conformance-');
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
    harness: createPiHarness({
      retries: false,
      baseEnv: { PATH: process.env.PATH, HOME: home, TMPDIR: tmp },
    }),
    async serve(script: ConformanceScript) {
      const model = await startScriptedModel({ script });
      models.push(model);
      return {
        // The codon env points this start at this case's model, as OpenAI's server.
        env: { OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'sk-scripted-dummy' },
        requests: () => model.requests,
      };
    },
    startOptions: (overrides = {}) => ({
      codonId: 'codon#0',
      runId: 'run-conformance',
      model: 'gpt-5.2',
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

describeHarnessConformance('pi', piRig);
