// Child process of crash.int.test.ts: checkpoints (and now and then restores) a small tree in a
// loop, reporting each step on stdout, until the parent SIGKILLs it.
import { writeSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckpointEngine } from '../src/index.js';

const [executionDir, seedText, incarnation] = process.argv.slice(2) as [string, string, string];
let seed = Number(seedText) >>> 0;
const random = (): number => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const say = (line: string): void => {
  writeSync(1, `${line}\n`); // synchronous: a line the parent reads was really emitted first
};

const root = join(executionDir, 'agentRoot');
async function listFiles(dir = '', out: string[] = []): Promise<string[]> {
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await listFiles(path, out);
    else out.push(path);
  }
  return out;
}

async function mutate(step: number): Promise<void> {
  const big = step % 9 === 0; // ≥ 100 new blobs: the pack path
  const count = big ? 110 : 3;
  for (let i = 0; i < count; i++) {
    const path = big
      ? `bulk/b${i}.txt`
      : `d${Math.floor(random() * 5)}/f${Math.floor(random() * 12)}.txt`;
    await mkdir(join(root, path, '..'), { recursive: true });
    if (!big && random() < 0.25) await rm(join(root, path), { force: true });
    else
      await writeFile(
        join(root, path),
        `${path} ${step} ${random()}\n`.repeat(1 + Math.floor(random() * 20)),
      );
  }
}

const engine = await CheckpointEngine.open({ executionDir });
say(`ready ${(await engine.head()).sha}`);
const done: string[] = [];
for (let step = 1; ; step++) {
  if (done.length > 2 && random() < 0.15) {
    const target = done[Math.floor(random() * done.length)] as string;
    say(`restoring ${target}`);
    await engine.restore(target);
    say(`restored ${target}`);
  }
  await mutate(step);
  const codonId = `k${incarnation}s${step}`;
  say(`pending ${codonId}`);
  const result = await engine.checkpoint({
    type: 'completed',
    codonId,
    codonName: 'Crash loop',
    runId: `crash${Number(incarnation) % 7}`,
    durationMs: step,
    files: await listFiles(),
  });
  done.push(result.sha);
  say(`done ${codonId} ${result.sha} ${result.tree}`);
}
