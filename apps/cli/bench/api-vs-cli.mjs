// The API of `hankweave ui` against the same reads done by the CLI, in the same run: each read's
// first answer on a fresh server, then the median of `runs` rounds (API and CLI interleaved, so
// both see the same machine load), with `hankweave --version` as the CLI's process-start baseline.

import { runCli, startUi } from './processes.mjs';
import { barKeyOf } from './synthetic-schedule.mjs';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const lines = (stdout) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

function expect(condition, what) {
  if (!condition) throw new Error(`bench check failed: ${what}`);
}

/** The record whose events the per-codon read pages: a plain codon that ran once. */
function pagedRecord(schedule) {
  const once = schedule.records.filter(
    (record) =>
      !record.loopContext &&
      schedule.records.filter((other) => other.codonId === record.codonId).length === 1,
  );
  return once[Math.floor(once.length / 4)];
}

/** The reads compared, each with what its answers must hold (checked outside the timing). */
function readsOf(execution) {
  const { id, executionDir, baseDir, schedule } = execution;
  const bars = schedule.records.length;
  const record = pagedRecord(schedule);
  const encoded = encodeURIComponent(id);
  return {
    record,
    table: [
      {
        name: 'list (`/api/executions` · `sessions --all --json`)',
        api: '/api/executions',
        cli: ['sessions', '--base', baseDir, '--all', '--json'],
        checkApi: (body) =>
          expect(JSON.parse(body).executions[0]?.id === id, 'the list names the execution'),
        checkCli: (out) =>
          expect(JSON.parse(out)[0]?.executionDir === executionDir, 'sessions lists it'),
      },
      {
        name: `execution detail, ${bars} bars (\`/api/executions/:id\` · \`status --json\`)`,
        api: `/api/executions/${encoded}`,
        cli: ['status', '-e', executionDir, '--json'],
        detail: true,
        checkApi: (body) => expect(JSON.parse(body).bars.length === bars, `${bars} bars`),
        checkCli: (out) => expect(JSON.parse(out).runs.length === 2, 'status shows both runs'),
      },
      {
        name: 'newest 100 events (`events?before=&limit=100` · `events -n 100 --json`)',
        api: `/api/executions/${encoded}/events?before=&limit=100`,
        cli: ['events', '-e', executionDir, '-n', '100', '--json'],
        checkApi: (body) => expect(JSON.parse(body).events.length === 100, '100 events'),
        checkCli: (out) => expect(lines(out).length === 100, '100 lines'),
        checkBoth: (body, out) =>
          expect(
            JSON.parse(body)
              .events.map((event) => event.id)
              .join() ===
              lines(out)
                .map((event) => event.id)
                .join(),
            'the API and the CLI show the same newest events',
          ),
      },
      {
        name: `one codon's events, 100 (\`events?codon=${barKeyOf(record)}\` · \`events -c ${record.codonId} -n 100 --json\`)`,
        api: `/api/executions/${encoded}/events?codon=${encodeURIComponent(barKeyOf(record))}&limit=100`,
        cli: ['events', '-e', executionDir, '-c', record.codonId, '-n', '100', '--json'],
        perCodon: true,
        checkApi: (body) => {
          const { events } = JSON.parse(body);
          expect(events.length === 100, 'a page of 100');
          expect(
            events.every((event) => event.data.codonId === record.codonId),
            'only that codon',
          );
        },
        checkCli: (out) => {
          const events = lines(out);
          expect(events.length === 100, '100 lines');
          expect(
            events.every((event) => event.data.codonId === record.codonId),
            'only that codon',
          );
        },
      },
    ],
  };
}

/**
 * Whether the server stays responsive while a first per-codon read builds the index: the
 * execution detail read again and again (100 ms apart) until that read answers, on a fresh server.
 */
async function detailWhileIndexing(execution, table, perCodon) {
  const detail = table.find((read) => read.detail);
  const ui = await startUi(execution.baseDir);
  try {
    await ui.get(detail.api); // the state parsed once, as before any per-codon read
    let building = true;
    const indexing = ui.get(perCodon.api).finally(() => {
      building = false;
    });
    const times = [];
    while (building) {
      await new Promise((done) => setTimeout(done, 100));
      if (building) times.push((await ui.get(detail.api)).ms);
    }
    await indexing;
    return times.length === 0
      ? undefined
      : { count: times.length, median: median(times), max: Math.max(...times) };
  } finally {
    await ui.close();
  }
}

/**
 * Measures every read. `firstReads` fresh servers give the per-codon read's first answer (the
 * index is built by it); the first of them also answers the other reads and is measured for RSS.
 * Returns rows of `{ name, apiFirst, api, cli }` (ms) plus the process-start baseline and memory.
 */
export async function measureReads(execution, { runs, firstReads, log }) {
  const { table, record } = readsOf(execution);
  const ui = await startUi(execution.baseDir);
  const samples = new Map(table.map((read) => [read, { first: [], api: [], cli: [] }]));
  const versionMs = [];
  let memory;
  try {
    // First answers of a fresh server, in the order a user meets them.
    for (const read of table.filter((read) => !read.perCodon)) {
      const answer = await ui.get(read.api);
      read.checkApi(answer.body);
      samples.get(read).first.push(answer.ms);
    }
    const perCodon = table.find((read) => read.perCodon);
    const beforeIndex = ui.rss();
    const first = await ui.get(perCodon.api);
    perCodon.checkApi(first.body);
    samples.get(perCodon).first.push(first.ms);
    memory = { beforeIndex, afterIndex: ui.rss() };
    log(
      `  per-codon first read (index build): ${first.ms.toFixed(0)} ms on ${execution.events.toLocaleString('en-US')} events`,
    );

    for (let round = 0; round < runs; round++) {
      versionMs.push((await runCli(['--version'])).ms);
      for (const read of table) {
        const answer = await ui.get(read.api);
        const child = await runCli(read.cli);
        if (round === 0) {
          read.checkApi(answer.body);
          read.checkCli(child.stdout);
          read.checkBoth?.(answer.body, child.stdout);
        }
        samples.get(read).api.push(answer.ms);
        samples.get(read).cli.push(child.ms);
      }
      log(`  round ${round + 1}/${runs} done`);
    }
    memory.afterRounds = ui.rss();
  } finally {
    await ui.close();
  }
  // More first reads of the per-codon page: each needs a server that has not built its index.
  const perCodon = table.find((read) => read.perCodon);
  for (let extra = 1; extra < firstReads; extra++) {
    const fresh = await startUi(execution.baseDir);
    try {
      samples.get(perCodon).first.push((await fresh.get(perCodon.api)).ms);
    } finally {
      await fresh.close();
    }
  }
  const duringIndexBuild = await detailWhileIndexing(execution, table, perCodon);
  return {
    record,
    processStart: median(versionMs),
    memory,
    duringIndexBuild,
    rows: table.map((read) => {
      const { first, api, cli } = samples.get(read);
      return {
        name: read.name,
        detail: read.detail === true,
        apiFirst: median(first),
        firstCount: first.length,
        api: median(api),
        cli: median(cli),
      };
    }),
  };
}
