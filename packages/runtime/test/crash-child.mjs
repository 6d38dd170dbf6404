// Child of the crash test: runs the example hank on a model that stalls in the middle of the
// second codon, and reports when that codon is running. The parent kills it with SIGKILL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '@hankweave/scripted-model';
import { childRuntime } from './child-runtime.mjs';

const [hankDir, executionDir, home] = process.argv.slice(2);
const script = JSON.parse(readFileSync(join(hankDir, 'model-script.json'), 'utf8'));
const summarize = script.conversations.find((conversation) => conversation.name === 'summarize');
summarize.turns[0] = {
  ...summarize.turns[0],
  fail: { kind: 'stall', phase: 'before-headers' },
  times: 'always',
};
const model = await startScriptedModel({ script });
const runtime = childRuntime({ hankDir, executionDir, home, modelUrl: model.url });
runtime.on((event) => {
  if (event.type === 'codon.started' && event.data.codonId === 'summarize') {
    // Give the agent a moment to send its (stalling) request, so the kill lands mid-codon.
    setTimeout(() => process.stdout.write(`RUNNING ${runtime.executionDir}\n`), 300);
  }
});
await runtime.start();
await runtime.finished;
process.stdout.write('FINISHED\n');
