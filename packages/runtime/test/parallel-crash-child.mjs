// Child of the parallel-block crash test: runs a hank whose codon `stallCodon` stalls on the model,
// and reports RUNNING once that codon runs and codon `doneCodon` (on another branch) completed.
// The parent kills it with SIGKILL, mid-block.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '@hankweave/scripted-model';
import { childRuntime } from './child-runtime.mjs';

const [hankDir, executionDir, home, stallCodon, doneCodon] = process.argv.slice(2);
const script = JSON.parse(readFileSync(join(hankDir, 'model-script.json'), 'utf8'));
const marker = `TASK_${stallCodon.toUpperCase()}`;
const stalling = script.conversations.find((conversation) => conversation.match?.marker === marker);
stalling.turns[0] = {
  ...stalling.turns[0],
  fail: { kind: 'stall', phase: 'before-headers' },
  times: 'always',
};
const model = await startScriptedModel({ script });
const runtime = childRuntime({ hankDir, executionDir, home, modelUrl: model.url });
let stalled = false;
let done = false;
const report = () => {
  // Give the agent a moment to send its (stalling) request, so the kill lands mid-codon.
  if (stalled && done) setTimeout(() => process.stdout.write('RUNNING\n'), 300);
};
runtime.on((event) => {
  if (event.type === 'codon.started' && event.data.codonId === stallCodon) {
    stalled = true;
    report();
  }
  if (event.type === 'codon.completed' && event.data.codonId === doneCodon) {
    done = true;
    report();
  }
});
await runtime.start();
await runtime.finished;
process.stdout.write('FINISHED\n');
