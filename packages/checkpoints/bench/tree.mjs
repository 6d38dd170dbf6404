// Generates the benchmark work tree: N tracked text files (1–20 KB) in nested directories, a few
// 1–5 MB files, and an ignored node_modules/ (N/2 files) that is never in the tracked list.
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { seededRandom } from '@hankweave/durable-io/testing';

/** Deterministic, so every run builds the same tree. */
export const prng = seededRandom;

const WORDS = (
  'const let function return import export from await async class interface type extends ' +
  'string number boolean null undefined true false if else for while switch case break ' +
  'checkpoint codon runtime sentinel journal state files hank agent tool result value key ' +
  'path tree commit branch restore index object blob hash cache stat size mode error throw'
).split(' ');

/** Text that compresses like source code: lines of words from a small vocabulary. */
export function text(random, bytes) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    const count = 3 + Math.floor(random() * 10);
    let line = '  '.repeat(Math.floor(random() * 4));
    for (let i = 0; i < count; i++) line += `${WORDS[Math.floor(random() * WORDS.length)]} `;
    line += `${Math.floor(random() * 1e6)};`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Path of tracked file number i: ~10 files per directory, three levels deep. */
export function trackedPath(i) {
  return `src/m${Math.floor(i / 100)}/d${Math.floor(i / 10) % 10}/f${i}.txt`;
}

/**
 * Writes the whole tree under `root`; returns the tracked list (sorted) and the PRNG. `scale`
 * multiplies every file's size (at least 64 bytes), for trees too big for the disk or the time.
 */
export function generateTree(root, count, seed = 42, scale = 1) {
  rmSync(root, { recursive: true, force: true });
  const random = prng(seed);
  const tracked = [];
  const size = (bytes) => Math.max(64, Math.round(bytes * scale));
  const write = (path, content) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  write('.gitignore', 'node_modules/\n');
  tracked.push('.gitignore');
  for (let i = 0; i < count; i++) {
    const path = trackedPath(i);
    write(path, text(random, size(1024 + Math.floor(random() * 19 * 1024))));
    tracked.push(path);
  }
  const big = Math.max(3, Math.round(count / 2000));
  for (let i = 0; i < big; i++) {
    const path = `assets/big-${i}.txt`;
    write(path, text(random, size((1 + Math.floor(random() * 5)) * 1024 * 1024)));
    tracked.push(path);
  }
  for (let i = 0; i < count / 2; i++) {
    write(
      `node_modules/pkg${Math.floor(i / 50)}/lib/m${i}.js`,
      text(random, size(1024 + Math.floor(random() * 3 * 1024))),
    );
  }
  return { tracked: tracked.sort(), random, next: count };
}

/**
 * The incremental workload: modify 10, add 10, delete 10 tracked files. Mutates `state`
 * (tracked list and the next file number) and returns the changed paths.
 */
export function mutate(root, state) {
  const { random } = state;
  const small = state.tracked.filter((path) => path.startsWith('src/'));
  const pick = new Set();
  while (pick.size < 20) pick.add(small[Math.floor(random() * small.length)]);
  const [modified, deleted] = [[...pick].slice(0, 10), [...pick].slice(10)];
  for (const path of modified) writeFileSync(join(root, path), text(random, 2048), { flag: 'a' });
  for (const path of deleted) unlinkSync(join(root, path));
  const added = [];
  for (let i = 0; i < 10; i++) {
    const path = trackedPath(state.next++).replace('.txt', '.new.txt');
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text(random, 4096));
    added.push(path);
  }
  const gone = new Set(deleted);
  state.tracked = [...state.tracked.filter((path) => !gone.has(path)), ...added].sort();
  return [...modified, ...added, ...deleted];
}
