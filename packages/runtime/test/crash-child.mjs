// Child of the crash test: runs the example hank on a model that stalls in the middle of the
// second codon, and reports when that codon is running. The parent kills it with SIGKILL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '@hankweave/scripted-model';
import { createRuntime } from '../dist/index.js';

const [hankDir, executionDir, home] = process.argv.slice(2);
const script = JSON.parse(readFileSync(join(hankDir, 'model-script.json'), 'utf8'));
const summarize = script.conversations.find((conversation) => conversation.name === 'summarize');
summarize.turns[0] = {
  ...summarize.turns[0],
  fail: { kind: 'stall', phase: 'before-headers' },
  times: 'always',
};
const model = await startScriptedModel({ script });
const runtime = createRuntime({
  hankPath: join(hankDir, 'hank.json'),
  dataPath: join(hankDir, 'data'),
  executionDir,
  anthropicBaseUrl: model.url,
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
runtime.on((event) => {
  if (event.type === 'codon.started' && event.data.codonId === 'summarize') {
    // Give the agent a moment to send its (stalling) request, so the kill lands mid-codon.
    setTimeout(() => process.stdout.write(`RUNNING ${runtime.executionDir}\n`), 300);
  }
});
await runtime.start();
await runtime.finished;
process.stdout.write('FINISHED\n');
