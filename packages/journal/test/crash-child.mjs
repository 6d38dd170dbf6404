// Child process of journal-crash.int.test.ts: appends to a journal as fast as it can and prints the
// id of every acknowledged event, until the parent SIGKILLs it. Imports the built package.
import { writeSync } from 'node:fs';
import { createFileJournal } from '../dist/index.js';

const [hankweaveDir, durability, runId] = process.argv.slice(2);
const journal = await createFileJournal({ hankweaveDir, durability, batchIntervalMs: 2 });
writeSync(1, 'ready\n');

let sequence = 0;
const event = () => {
  const n = sequence++;
  // Varied sizes, now and then a large one, so that kills land inside writes of every size.
  const size = n % 97 === 0 ? 200_000 : (n * 37) % 700;
  return {
    id: `evt_${runId}_${n}`,
    type: 'info',
    timestamp: new Date().toISOString(),
    data: { message: 'x'.repeat(size) },
  };
};
// writeSync: the id is in the pipe before the next event is even queued.
const ack = (stored) => writeSync(1, `${stored.id}\n`);

for (let round = 0; ; round++) {
  if (round % 10 === 9) {
    // Bulk mode (history replay): acknowledged only when the whole call resolves.
    const stored = await journal.appendMany(Array.from({ length: 40 }, event));
    for (const one of stored) ack(one);
  } else {
    // Several appends in flight: concurrent callers, group commit and batching.
    await Promise.all(Array.from({ length: 8 }, () => journal.append(event()).then(ack)));
  }
}
