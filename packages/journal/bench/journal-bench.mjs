// Benchmarks of @hankweave/journal (built dist/). Run: pnpm --filter @hankweave/journal bench
// Prints a Markdown report; BENCHMARKS.md keeps the latest one.
import {
  appendFileSync,
  closeSync,
  createReadStream,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createFileJournal } from '../dist/index.js';

const root = await mkdtemp(join(tmpdir(), 'journal-bench-'));
const rows = [];
const report = (section, name, value, ratio = '') => {
  rows.push({ section, name, value, ratio });
  console.error(`${section} | ${name} | ${value} | ${ratio}`);
};
const ratio = (value, baseline) => `${(value / baseline).toFixed(2)}×`;

/** A realistic event: ~300 bytes, like assistant.action lines of a real journal. */
const event = (i) => ({
  id: `evt_${i.toString(16).padStart(20, '0')}`,
  type: 'assistant.action',
  timestamp: new Date(1_736_000_000_000 + i * 10).toISOString(),
  data: {
    codonId: `codon-${i % 12}`,
    action: 'thinking',
    content: `Step ${i}: reading the data and deciding what to write next. `.repeat(3),
  },
});
const lineOf = (i) => `${JSON.stringify(event(i))}\n`;

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rate = (count, ms) => (count / ms) * 1000;
const perSecond = (value) => `${Math.round(value).toLocaleString('en-US')} ev/s`;

// 1. Append throughput per durability mode, against raw appendFileSync of the same lines.
async function appendBench() {
  const n = 20_000;
  const basePath = join(root, 'baseline.jsonl');
  let start = performance.now();
  for (let i = 0; i < n; i++) appendFileSync(basePath, lineOf(i));
  const baseline = rate(n, performance.now() - start);
  report('append', 'baseline: fs.appendFileSync per line (no fsync)', perSecond(baseline), '1.00×');
  const measured = (name, count, since) => {
    const value = rate(count, performance.now() - since);
    report('append', name, perSecond(value), ratio(value, baseline));
  };

  for (const durability of ['none', 'batched', 'fsync']) {
    // One awaiting caller pays a whole fsync (or batch interval) per event: fewer of those.
    const sequentialCount = durability === 'none' ? n : 1_000;
    const dir = join(root, `append-${durability}`);
    const journal = await createFileJournal({ hankweaveDir: dir, durability });
    start = performance.now();
    for (let i = 0; i < sequentialCount; i++) await journal.append(event(i));
    measured(`${durability}: await each append (one caller)`, sequentialCount, start);
    start = performance.now();
    const inFlight = [];
    for (let i = 0; i < n; i++) {
      inFlight.push(journal.append(event(i)));
      if (inFlight.length === 256) await Promise.all(inFlight.splice(0));
    }
    await Promise.all(inFlight);
    measured(`${durability}: 256 appends in flight`, n, start);
    start = performance.now();
    await journal.appendMany(Array.from({ length: n }, (_, i) => event(i)));
    measured(`${durability}: appendMany (bulk, ${n})`, n, start);
    await journal.close();
  }
}

/** Writes `count` event lines straight to a journal file, in 4 MiB chunks. */
async function generate(count) {
  const dir = join(root, `journal-${count}`);
  await mkdir(join(dir, 'events'), { recursive: true });
  const path = join(dir, 'events', 'events.jsonl');
  const fd = openSync(path, 'w');
  let chunk = '';
  for (let i = 0; i < count; i++) {
    chunk += lineOf(i);
    if (chunk.length > 4_000_000) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  return { dir, path };
}

// 2. Tail read and count on 10k and 1M events: they must not grow with the journal. The two
// journals are measured alternately, call by call, so both see the same machine load.
async function sizeBench() {
  const journals = {};
  for (const count of [10_000, 1_000_000]) {
    const label = count === 10_000 ? '10k' : '1M';
    let start = performance.now();
    const { dir, path } = await generate(count);
    const bytes = statSync(path).size;
    report(
      'size',
      `${label}: generate file directly (${(bytes / 1e6).toFixed(0)} MB)`,
      `${(performance.now() - start).toFixed(0)} ms`,
    );
    start = performance.now();
    let journal = await createFileJournal({ hankweaveDir: dir });
    report(
      'size',
      `${label}: first open (no index: full scan)`,
      `${(performance.now() - start).toFixed(0)} ms`,
    );
    await journal.close();
    start = performance.now();
    journal = await createFileJournal({ hankweaveDir: dir });
    report(
      'size',
      `${label}: reopen (sidecar index)`,
      `${(performance.now() - start).toFixed(1)} ms`,
    );
    if ((await journal.getTotalEvents()) !== count) throw new Error('wrong count');
    journals[label] = { journal, path, bytes };
  }
  const labels = ['10k', '1M'];
  const measure = async (operation, runs) => {
    const times = { '10k': [], '1M': [] };
    for (let i = 0; i < runs + 50; i++) {
      for (const label of labels) {
        const start = process.hrtime.bigint();
        await operation(journals[label].journal);
        if (i >= 50) times[label].push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    return { '10k': median(times['10k']), '1M': median(times['1M']) };
  };
  const tail = await measure((journal) => journal.getMostRecentEvents(50), 500);
  const total = await measure((journal) => journal.getTotalEvents(), 2000);
  for (const label of labels) {
    report('size', `${label}: getMostRecentEvents(50), median`, `${tail[label].toFixed(3)} ms`);
    report('size', `${label}: getTotalEvents(), median`, `${total[label].toFixed(3)} ms`);
  }
  report(
    'size',
    'getMostRecentEvents(50): 1M time / 10k time (target ≤ 2×)',
    '',
    ratio(tail['1M'], tail['10k']),
  );
  report(
    'size',
    'getTotalEvents(): 1M time / 10k time (target ≤ 2×)',
    '',
    ratio(total['1M'], total['10k']),
  );
  await journals['10k'].journal.close();
  return journals['1M'];
}

// 3. Full streaming scan of the 1M journal, against raw readline over the same file.
async function scanBench({ path, bytes, journal }) {
  const mb = bytes / 1e6;
  let start = performance.now();
  let lines = 0;
  for await (const line of createInterface({
    input: createReadStream(path),
    crlfDelay: Infinity,
  })) {
    if (line) lines += 1;
  }
  const baseline = mb / ((performance.now() - start) / 1000);
  const scanned = (name, since, note = '') => {
    const value = mb / ((performance.now() - since) / 1000);
    report('scan', `${name}${note}`, `${value.toFixed(0)} MB/s`, ratio(value, baseline));
  };
  report('scan', 'baseline: readline, lines only', `${baseline.toFixed(0)} MB/s`, '1.00×');
  start = performance.now();
  for await (const line of createInterface({
    input: createReadStream(path),
    crlfDelay: Infinity,
  })) {
    if (line) JSON.parse(line);
  }
  scanned('readline + JSON.parse (for reference)', start);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  start = performance.now();
  let events = 0;
  for await (const _ of journal.getAllEvents()) {
    events += 1;
    if (events % 10_000 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  if (events !== lines) throw new Error('scan lost events');
  scanned(
    'getAllEvents(): parse + envelope check',
    start,
    ` (heap grew ≤ ${((heapPeak - heapBefore) / 1e6).toFixed(0)} MB over ${mb.toFixed(0)} MB)`,
  );
  start = performance.now();
  let streamed = 0;
  for await (const chunk of await journal.streamAllEvents()) streamed += chunk.length;
  if (streamed !== bytes) throw new Error('stream lost bytes');
  scanned('streamAllEvents(): raw bytes', start);
  await journal.close();
}

try {
  await appendBench();
  await scanBench(await sizeBench());
} finally {
  await rm(root, { recursive: true, force: true });
}

console.log(
  `Node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}\n`,
);
let section = '';
for (const row of rows) {
  if (row.section !== section) {
    section = row.section;
    console.log(`\n| ${section} | result | ratio |\n| --- | --- | --- |`);
  }
  console.log(`| ${row.name} | ${row.value} | ${row.ratio} |`);
}
