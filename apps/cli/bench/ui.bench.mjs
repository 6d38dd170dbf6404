// `hankweave ui` on a big execution (issue 22, item 5): the API's response times against the
// same reads done by the CLI, and the dashboard's first paint in headless Chromium against the
// same page of a tiny execution, all measured in the same run. Prints a Markdown report.
//
// Run: pnpm --filter hankweave build && node apps/cli/bench/ui.bench.mjs [--runs 5]
//      [--first-reads 3] [--loads 9] [--no-browser]
// --runs: rounds of reads (API and CLI); --first-reads: fresh servers for the per-codon first
// read; --loads: page loads of each page, big and tiny.
// The executions are generated once (about 10 s and 285 MB) and cached in apps/cli/bench/.bench/.
import { statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { measureReads } from './api-vs-cli.mjs';
import { measurePaint } from './first-paint.mjs';
import { syntheticExecutions } from './synthetic-executions.mjs';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'first-reads': { type: 'string', default: '3' },
    loads: { type: 'string', default: '9' },
    'no-browser': { type: 'boolean', default: false },
  },
});
const runs = Number(options.runs);
const firstReads = Number(options['first-reads']);
const loads = Number(options.loads);
const log = (line) => console.error(line);
const started = performance.now();

const ms = (value) =>
  value === undefined ? 'n/a' : `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
/** A ratio with two significant digits below 0.1 (0.0013×), else two decimals. */
const times = (value, baseline) => {
  if (value === undefined || !(baseline > 0)) return 'n/a';
  const ratio = value / baseline;
  return `${ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}×`;
};
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (head, body) => [row(head), row(head.map(() => '---')), ...body.map(row)].join('\n');

const { big, tiny, cached } = await syntheticExecutions(log);
const stateBytes = statSync(join(big.executionDir, '.hankweave', 'state.json')).size;

log(`API against CLI (${runs} rounds):`);
const reads = await measureReads(big, { runs, firstReads, log });
let paint;
if (!options['no-browser']) {
  log('First paint in headless Chromium:');
  paint = await measurePaint(big, tiny, { loads, log });
}

const start = reads.processStart;
const machine = `${cpus().length}× ${cpus()[0]?.model.trim()}, Node ${process.version}`;
const load = loadavg()
  .map((value) => value.toFixed(1))
  .join(' / ');
const command = `pnpm --filter hankweave build && node apps/cli/bench/ui.bench.mjs --runs ${runs} --first-reads ${firstReads} --loads ${loads}`;
const detailApi = reads.rows.find((read) => read.detail)?.api;
const report = [
  `### \`hankweave ui\` on ${big.schedule.records.length.toLocaleString('en-US')} codon records and ${big.events.toLocaleString('en-US')} events`,
  '',
  `${new Date().toISOString().slice(0, 10)}, ${machine}, load average ${load} at the end${paint ? `, ${paint.chromium}` : ''}. Executions ${cached ? 'from the cache' : 'generated in this run'}: state.json ${mb(stateBytes)}, events.jsonl ${mb(big.journalBytes)}. Command: \`${command}\`.`,
  '',
  `Reads: median of ${runs} rounds; "first" is a fresh server's first answer (the per-codon one builds the index; median of ${reads.rows.at(-1)?.firstCount} fresh servers). The CLI figure is a whole process; "net" subtracts the process start (\`hankweave --version\`: ${ms(start)}).`,
  '',
  table(
    ['read', 'API first', 'API', 'CLI', 'CLI net', 'API ÷ CLI', 'API ÷ CLI net'],
    reads.rows.map((read) => [
      read.name,
      ms(read.apiFirst),
      ms(read.api),
      ms(read.cli),
      ms(read.cli - start),
      times(read.api, read.cli),
      times(read.api, read.cli - start),
    ]),
  ),
  '',
  `Server memory (RSS): ${reads.memory.beforeIndex.rssMb.toFixed(0)} MB before the per-codon index, ${reads.memory.afterIndex.rssMb.toFixed(0)} MB after building it, ${reads.memory.afterRounds.rssMb.toFixed(0)} MB after all rounds (peak ${reads.memory.afterRounds.peakMb.toFixed(0)} MB).`,
  '',
  reads.duringIndexBuild
    ? `While a first per-codon read builds the index, the execution detail still answers: median ${ms(reads.duringIndexBuild.median)}, slowest ${ms(reads.duringIndexBuild.max)} (${reads.duringIndexBuild.count} reads, 100 ms apart; the median is ${times(reads.duringIndexBuild.median, detailApi)} the one above).`
    : 'The index was built before a second read could be sent (under 100 ms).',
];
if (paint) {
  report.push(
    '',
    `First paint: median of ${loads} loads each (after one warm-up load), big and tiny alternately, a fresh browser context per load (1280×900). Times from navigation start; "API answered" is when the page's last \`/api/\` response ended; "on screen" is the frame after the last bar (row) appeared in the DOM.`,
    '',
    table(
      [
        'page',
        'FCP big · tiny',
        'API answered big · tiny',
        'on screen big · tiny',
        'FCP ÷ tiny',
        'on screen ÷ tiny',
      ],
      paint.pages.map((page) => [
        page.name,
        `${ms(page.big.fcp)} · ${ms(page.tiny.fcp)}`,
        `${ms(page.big.apiDone)} · ${ms(page.tiny.apiDone)}`,
        `${ms(page.big.onScreen)} · ${ms(page.tiny.onScreen)}`,
        times(page.big.fcp, page.tiny.fcp),
        times(page.big.onScreen, page.tiny.onScreen),
      ]),
    ),
  );
}
console.log(report.join('\n'));
log(`Bench done in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
