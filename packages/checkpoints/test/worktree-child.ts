// Child process of worktrees.int.test.ts: opens one branch work tree of a shared repository,
// seeds it from the base checkpoint, then changes files and checkpoints them on its own branch,
// round after round, reporting each step on stdout, until done or SIGKILLed by the parent.
import { writeSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckpointEngine } from '../src/index.js';

const [executionDir, name, base, roundsText, seedText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
let seed = Number(seedText) >>> 0;
const random = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const say = (line: string): void => {
  writeSync(1, `${line}\n`); // synchronous: a line the parent reads was really emitted first
};

const workTree = join(executionDir, 'branches', 'block', name, 'agentRoot');
const engine = await CheckpointEngine.open({
  executionDir,
  worktree: { name, workTree },
  fsync: false,
});
await engine.restore(base);
say('ready');
const files = new Set((await engine.files(base)).map((file) => file.path));
for (let round = 1; round <= Number(roundsText); round++) {
  const count = round % 5 === 0 ? 120 : 20;
  for (let i = 0; i < count; i++) {
    const path = `${name}/d${Math.floor(random() * 6)}/f${Math.floor(random() * 40)}.txt`;
    await mkdir(join(workTree, path, '..'), { recursive: true });
    await writeFile(join(workTree, path), `${path} ${round} ${random()}\n`.repeat(1 + (i % 30)));
    files.add(path);
  }
  say(`start ${round}`);
  const result = await engine.checkpoint({
    type: 'completed',
    codonId: `codon-${round}`,
    codonName: `Round ${round}`,
    runId: `exec1.block.${name}`,
    durationMs: 1,
    files: [...files],
  });
  say(`committed ${round} ${result.sha}`);
}
await engine.close();
say('done');
