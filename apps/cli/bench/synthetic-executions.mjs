// The two executions the bench reads, each alone in its own executions base directory (what
// `hankweave ui --base` and `hankweave sessions --base` list): the big one (1,000 codon records,
// 1,000,000 events) and the tiny baseline. Generated once with the packages' writers and cached
// under `apps/cli/bench/.bench/` (gitignored), keyed by the generator's version and the shapes;
// a generation cut short leaves no `complete.json` and is redone.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '@hankweave/durable-io';
import {
  isoSeconds,
  pipelineSessionKey,
  SessionRegistry,
  toSessionName,
} from '@hankweave/sessions';
import { executionMetaSchema } from '@hankweave/types';
import { BIG_SHAPE, executionSchedule, TINY_SHAPE } from './synthetic-schedule.mjs';
import { writeJournal } from './write-journal.mjs';
import { shaOf, writeState } from './write-state.mjs';

/** Bump when the generated executions change, so cached ones are regenerated. */
export const GENERATOR_VERSION = 1;

const CACHE_ROOT = fileURLToPath(new URL('./.bench/', import.meta.url));
const shapesHash = createHash('sha1')
  .update(JSON.stringify([BIG_SHAPE, TINY_SHAPE]))
  .digest('hex')
  .slice(0, 8);
const cacheKey = `ui-v${GENERATOR_VERSION}-${shapesHash}`;

/** Where a shape's execution lives under the cache root: alone in its own base directory. */
function locationOf(root, shape) {
  const baseDir = join(root, shape.name === BIG_SHAPE.name ? 'big' : 'tiny');
  const executionDir = join(baseDir, `1767603600000-${shape.name}`);
  return { baseDir, executionDir, id: basename(executionDir) };
}

const iso = (ms) => new Date(ms).toISOString();

/** The hank file and data directory the execution-meta.json points at. */
async function writeHankAndData(root, schedule) {
  const hankDir = join(root, 'hanks', schedule.shape.name);
  await mkdir(join(hankDir, 'data'), { recursive: true });
  await writeFile(
    join(hankDir, 'data', 'cities.csv'),
    'city,country,population\nLyon,France,522\n',
  );
  const hank = {
    meta: { name: schedule.shape.name, version: '1.0.0' },
    hank: schedule.plan.filter((entry) => !entry.loopContext).map(({ codon }) => codon),
  };
  const hankPath = join(hankDir, 'hank.json');
  await writeFile(hankPath, `${JSON.stringify(hank, null, 2)}\n`);
  return { hankPath, dataPath: join(hankDir, 'data') };
}

/** execution-meta.json, checked against its schema, written atomically as the runtime does. */
async function writeMeta(executionDir, schedule, { hankPath, dataPath }) {
  const [run1, run2] = schedule.runs;
  const meta = executionMetaSchema.parse({
    version: '1.0.0',
    readOnlySourceDataPath: dataPath,
    readOnlySourceResolvedDataPath: dataPath,
    dataHash: shaOf(schedule.shape.name, 'data').slice(0, 12),
    hankHash: `${shaOf(schedule.shape.name, 'hank')}${shaOf('hank')}`.slice(0, 64),
    hankPath,
    linkType: 'symlink',
    createdAt: iso(run1.startMs),
    lastUsed: iso(run2.endMs),
    dataHashVersion: 2,
  });
  await writeFileAtomic(
    join(executionDir, '.hankweave', 'execution-meta.json'),
    `${JSON.stringify(meta, null, 2)}\n`,
  );
}

/** The pipeline session a run registers (completed), so `hankweave sessions` lists it. */
async function registerSession(baseDir, executionDir, schedule, { hankPath, dataPath }) {
  const [run1, run2] = schedule.runs;
  await new SessionRegistry(baseDir).register(
    pipelineSessionKey(toSessionName(basename(executionDir))),
    {
      type: 'pipeline',
      pipeline_file: hankPath,
      started_at: isoSeconds(new Date(run1.startMs)),
      project_path: baseDir,
      status: 'completed',
      killed_at: null,
      completed_at: isoSeconds(new Date(run2.endMs)),
      note: null,
      pid: 30_000,
      hostname: 'bench',
      execution_dir: executionDir,
      data_path: dataPath,
      hank_name: schedule.shape.name,
    },
  );
}

async function generate(root, shape, log) {
  const schedule = executionSchedule(shape);
  const { baseDir, executionDir } = locationOf(root, shape);
  const files = await writeHankAndData(root, schedule);
  const started = performance.now();
  const state = await writeState(schedule, executionDir);
  log(
    `  ${shape.name}: state.json with ${state.records} codon records (StateStore, validateState: valid, ${state.warnings} warnings) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await writeMeta(executionDir, schedule, files);
  await registerSession(baseDir, executionDir, schedule, files);
  const journalStarted = performance.now();
  let shown = 0;
  const events = await writeJournal(schedule, join(executionDir, '.hankweave'), (done, total) => {
    if (done === total || done - shown >= total / 10) {
      shown = done;
      const seconds = (performance.now() - journalStarted) / 1000;
      log(
        `  ${shape.name}: journal ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} events (${seconds.toFixed(1)} s)`,
      );
    }
  });
  const journalBytes = (await stat(join(executionDir, '.hankweave', 'events', 'events.jsonl')))
    .size;
  return { events, journalBytes };
}

/**
 * The big and tiny executions, from the cache when a complete one exists for this generator
 * version, else generated now (printing progress through `log`).
 */
export async function syntheticExecutions(log = (line) => console.error(line)) {
  const root = join(CACHE_ROOT, cacheKey);
  const marker = join(root, 'complete.json');
  const describe = (shape, written) => ({
    ...locationOf(root, shape),
    schedule: executionSchedule(shape),
    ...written,
  });
  if (existsSync(marker)) {
    const saved = JSON.parse(await readFile(marker, 'utf8'));
    log(`Synthetic executions: cached in ${root}`);
    return {
      root,
      cached: true,
      big: describe(BIG_SHAPE, saved.big),
      tiny: describe(TINY_SHAPE, saved.tiny),
    };
  }
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  log(`Synthetic executions: generating into ${root} (once; later runs use the cache)`);
  const started = performance.now();
  const tiny = await generate(root, TINY_SHAPE, log);
  const big = await generate(root, BIG_SHAPE, log);
  await writeFile(
    marker,
    `${JSON.stringify({ version: GENERATOR_VERSION, shapes: [BIG_SHAPE, TINY_SHAPE], big, tiny }, null, 2)}\n`,
  );
  log(`Synthetic executions: generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    root,
    cached: false,
    big: describe(BIG_SHAPE, big),
    tiny: describe(TINY_SHAPE, tiny),
  };
}
