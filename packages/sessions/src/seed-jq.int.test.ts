import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkSessions } from './check.js';
import { sessionLayout } from './layout.js';
import { writeLoopState } from './loop-state.js';
import { writePipelineState } from './pipeline-state.js';
import { ensureProgressFile } from './progress-file.js';
import { selectPrunable } from './prune.js';
import { type SessionEntry, SessionRegistry, type SessionStatus } from './registry.js';
import { isoSeconds } from './timestamps.js';

// The seed's own bash + jq recipes, verbatim, on files our writers wrote: the files must stay
// usable by the seed's tools, and what those tools write must stay readable by us.

let dir: TempDir;
let registry: SessionRegistry;
/** Runs a seed recipe with bash in the project directory; returns its stdout. */
const sh = (script: string): string =>
  execFileSync('bash', ['-c', script], { cwd: dir.path, encoding: 'utf8' });

beforeAll(() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      "jq is not installed: these tests run the seed's jq recipes with the real jq. " +
        "Install Debian's jq (`sudo apt-get install jq`); CI's .ci/run installs it when missing.",
    );
  }
});
beforeEach(async () => {
  dir = await makeTempDir('sessions-jq-');
  registry = new SessionRegistry(dir.path);
});
afterEach(() => dir.cleanup());

const DAY = 86_400_000;
const daysAgo = (days: number) => isoSeconds(new Date(Date.now() - days * DAY));
const entry = (status: SessionStatus, fields: Partial<SessionEntry> = {}): SessionEntry => ({
  type: 'loop',
  loop_type: 'work',
  started_at: daysAgo(30),
  project_path: '/path/to/project',
  max_iterations: 50,
  status,
  ...fields,
});

async function seedRegistry(): Promise<void> {
  await registry.register('loop-myfeature', entry('running', { pid: 4242, hank_name: 'h' }));
  await registry.register('loop-done', entry('completed', { completed_at: daysAgo(10) }));
  await registry.register('pipeline-refine', {
    type: 'pipeline',
    pipeline_file: 'full-refine.yaml',
    started_at: daysAgo(1),
    project_path: '/path/to/project',
    status: 'running',
  });
}

describe("the seed's registry recipes", () => {
  it('list running sessions', async () => {
    await seedRegistry();
    const out = sh(
      `jq -r '.sessions | to_entries[] | select(.value.status == "running") | .key' .claude/loop-sessions.json`,
    );
    expect(out).toBe('loop-myfeature\npipeline-refine\n');
    // Our writers format JSON exactly as jq prints it.
    expect(sh(`cat .claude/loop-sessions.json | jq '.'`)).toBe(
      await readFile(registry.file, 'utf8'),
    );
  });

  it('update a status with tmp && mv, and we read the result, additions kept', async () => {
    await seedRegistry();
    sh(`jq --arg name "loop-myfeature" \\
   --arg status "killed" \\
   --arg killed "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \\
   '.sessions[$name].status = $status |
    .sessions[$name].killed_at = $killed' \\
   .claude/loop-sessions.json > tmp && mv tmp .claude/loop-sessions.json`);
    const snapshot = await registry.read();
    expect(snapshot.problems).toEqual([]);
    expect(snapshot.sessions['loop-myfeature']).toMatchObject({
      status: 'killed',
      killed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      pid: 4242,
      hank_name: 'h',
    });
    // And our locked writes go on from what jq wrote.
    await registry.setStatus('loop-myfeature', 'running');
    expect((await registry.read()).sessions['loop-myfeature']?.status).toBe('running');
  });

  it('add a session (no killed_at, completed_at or note) that we read, then remove it', async () => {
    await seedRegistry();
    sh(`jq --arg name "loop-myfeature" \\
   --arg type "loop" \\
   --arg loop_type "work" \\
   --arg started "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \\
   --arg path "$(pwd)" \\
   --argjson max 50 \\
   '.sessions[$name] = {
     type: $type,
     loop_type: $loop_type,
     started_at: $started,
     project_path: $path,
     max_iterations: $max,
     status: "running"
   }' .claude/loop-sessions.json > tmp && mv tmp .claude/loop-sessions.json`);
    const added = await registry.read();
    expect(added.problems).toEqual([]);
    expect(added.sessions['loop-myfeature']).toEqual({
      type: 'loop',
      loop_type: 'work',
      started_at: expect.any(String),
      project_path: dir.path,
      max_iterations: 50,
      status: 'running',
    });
    sh(
      `jq --arg name "loop-myfeature" 'del(.sessions[$name])' .claude/loop-sessions.json > tmp && mv tmp .claude/loop-sessions.json`,
    );
    expect(Object.keys((await registry.read()).sessions)).toEqual(['loop-done', 'pipeline-refine']);
  });

  it('remove completed entries older than 7 days: the same keys selectPrunable picks', async () => {
    await seedRegistry();
    await registry.register('loop-old-killed', entry('killed', { killed_at: daysAgo(8) }));
    await registry.register('loop-new-killed', entry('killed', { killed_at: daysAgo(2) }));
    await registry.register('loop-recent', entry('completed', { completed_at: daysAgo(1) }));
    await registry.register('loop-lost', entry('unknown_termination', { started_at: daysAgo(9) }));
    const before = (await registry.read()).sessions;
    const prunable = selectPrunable(before, {
      olderThanMs: 7 * DAY,
      statuses: ['completed', 'killed', 'unknown_termination'],
    });
    expect(prunable.sort()).toEqual(['loop-done', 'loop-lost', 'loop-old-killed']);
    sh(`CUTOFF=$(date -v-7d +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -d "7 days ago" +%Y-%m-%dT%H:%M:%SZ)

jq --arg cutoff "$CUTOFF" '
  .sessions |= with_entries(
    select(
      .value.status == "running" or
      (.value.completed_at // .value.killed_at // .value.started_at) > $cutoff
    )
  )
' .claude/loop-sessions.json > tmp && mv tmp .claude/loop-sessions.json`);
    const kept = Object.keys((await registry.read()).sessions);
    expect(kept.sort()).toEqual(
      Object.keys(before)
        .filter((key) => !prunable.includes(key))
        .sort(),
    );
  });

  it('remove all killed/completed entries: only running ones stay', async () => {
    await seedRegistry();
    sh(`jq '.sessions |= with_entries(select(.value.status == "running"))' \\
  .claude/loop-sessions.json > tmp && mv tmp .claude/loop-sessions.json`);
    expect(Object.keys((await registry.read()).sessions)).toEqual([
      'loop-myfeature',
      'pipeline-refine',
    ]);
  });

  it('find orphaned state files: the same ones checkSessions reports', async () => {
    await seedRegistry();
    const layout = sessionLayout(dir.path);
    const loop = { type: 'loop' as const, started_at: daysAgo(1), status: 'running' as const };
    for (const session of ['myfeature', 'lost']) {
      await writeLoopState(layout.loopStateFile(session), {
        ...loop,
        session,
        iteration: 0,
        history: [],
      });
    }
    const out = sh(`for f in .claude/loop-state-*.json; do
  session=$(basename "$f" | sed 's/loop-state-//; s/.json//')
  if ! jq -e ".sessions[\\"loop-$session\\"]" .claude/loop-sessions.json >/dev/null 2>&1; then
    echo "Orphaned: $f"
  fi
done`);
    expect(out).toBe('Orphaned: .claude/loop-state-lost.json\n');
    const { orphans } = await checkSessions(dir.path);
    expect(orphans.map((orphan) => orphan.session)).toEqual(['lost']);
  });
});

describe("the seed's loop state recipes", () => {
  it('read .status, .iteration, .reason and whether it is complete', async () => {
    await writeLoopState(sessionLayout(dir.path).loopStateFile('myfeature'), {
      session: 'myfeature',
      type: 'loop',
      loop_type: 'work',
      started_at: '2025-01-10T10:00:00Z',
      status: 'completed',
      iteration: 3,
      history: [1, 2, 3].map((iteration) => ({
        iteration,
        timestamp: '2025-01-10T10:01:00Z',
        plateau: iteration > 1,
        reasoning: null,
        decision: iteration > 1 ? ('stop' as const) : ('continue' as const),
      })),
      completed_at: '2025-01-10T10:10:00Z',
      reason: 'plateau',
    });
    const file = '.claude/loop-state-myfeature.json';
    expect(sh(`cat ${file} | jq '.status'`)).toBe('"completed"\n');
    expect(sh(`cat ${file} | jq '.iteration'`)).toBe('3\n');
    expect(sh(`cat ${file} | jq 'if .status == "completed" then "done" else "running" end'`)).toBe(
      '"done"\n',
    );
    expect(sh(`cat ${file} | jq '.reason'`)).toBe('"plateau"\n');
  });
});

describe("the seed's pipeline state recipes", () => {
  it('read .current_stage, the stages with their status, and .status', async () => {
    await writePipelineState(sessionLayout(dir.path).pipelineStateFile('myrefine'), {
      session: 'myrefine',
      pipeline: 'full-refine',
      started_at: '2025-01-10T10:00:00Z',
      status: 'running',
      current_stage: 1,
      stages: [
        {
          name: 'improve-plan',
          loop: 'improve-plan',
          runs: 5,
          status: 'completed',
          iterations_run: 3,
        },
        { name: 'refine-beads', loop: 'refine-beads', runs: null, status: 'running' },
      ],
    });
    const file = '.claude/pipeline-runs/myrefine/state.json';
    expect(sh(`cat ${file} | jq '.current_stage'`)).toBe('1\n');
    expect(sh(`cat ${file} | jq '.stages[] | {name, status}'`)).toBe(
      [
        { name: 'improve-plan', status: 'completed' },
        { name: 'refine-beads', status: 'running' },
      ]
        .map((stage) => `${JSON.stringify(stage, null, 2)}\n`)
        .join(''),
    );
    expect(sh(`cat ${file} | jq '.status'`)).toBe('"running"\n');
  });
});

describe("the seed's progress file recipe", () => {
  it('prints just the learnings with awk', async () => {
    const file = sessionLayout(dir.path).progressFile('myfeature');
    await mkdir(sessionLayout(dir.path).claudeDir, { recursive: true });
    await ensureProgressFile(file, 'myfeature', { verify: 'npm test' });
    await appendFile(file, '\n## 2025-01-10 - beads-123\n- Implemented it\n\n---\n');
    await appendFile(file, '\n## 2025-01-11 - beads-124\n- Learning: more\n\n---\n');
    const out = sh(
      `awk '/^---$/{found=1; next} found' .claude/loop-progress/progress-myfeature.txt`,
    );
    expect(out).toBe(
      '\n## 2025-01-10 - beads-123\n- Implemented it\n\n\n## 2025-01-11 - beads-124\n- Learning: more\n\n',
    );
  });
});
