import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  readLoopState,
  readPipelineState,
  SessionRegistry,
  sessionLayout,
} from '@hankweave/sessions';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// Plateau loops on the real agent: each iteration's agent pops its next vote from the data
// (a counter in its working directory), then reports it the way the vote says: PLATEAU lines in
// its final message, a result.json, an error, or nothing at all.

const POP_VOTE =
  'n=$(cat counter.txt 2>/dev/null || echo 0); n=$((n+1)); echo $n > counter.txt; sed -n "$n"p read_only_data_source/votes.txt';
const APPEND_PROGRESS =
  "printf '## 2026-11-25 - review\\n- reviewed the notes\\n\\n---\\n' >> notes/progress.txt";

const text = (value: string) => ({ content: [{ text: value }] });
const decisionFile = (decision: string, reason: string) => ({
  content: [{ write: { path: 'result.json', content: JSON.stringify({ decision, reason }) } }],
});
const script = (options: { appendProgress: boolean }) => ({
  conversations: [
    {
      match: { marker: 'TASK_REVIEW' },
      turns: [
        {
          content: [
            { bash: options.appendProgress ? `${APPEND_PROGRESS}; ${POP_VOTE}` : POP_VOTE },
          ],
          usage: { inputTokens: 100, outputTokens: 10 },
        },
        {
          choose: [
            {
              when: { lastToolResultContains: 'VOTE_STOP_FILE' },
              ...decisionFile('stop', 'the file says so'),
            },
            {
              when: { lastToolResultContains: 'VOTE_ERROR_FILE' },
              ...decisionFile('error', 'the build is broken'),
            },
            {
              when: { lastToolResultContains: 'VOTE_STOP' },
              ...text('Reviewed.\n\n**PLATEAU:** true\nREASONING: nothing significant left'),
            },
            {
              when: { lastToolResultContains: 'VOTE_CONTINUE' },
              ...text('Reviewed.\nPLATEAU: false\nREASONING: more to polish'),
            },
            text('Done.'),
          ],
        },
        text('Written.'),
      ],
    },
  ],
});
const hank = (terminateOn: Record<string, unknown>, progressFile: unknown) => ({
  meta: { name: 'plateau', version: '1.0.0' },
  hank: [
    {
      type: 'loop',
      id: 'review',
      name: 'Review',
      terminateOn: { type: 'plateau', ...terminateOn },
      progressFile,
      codons: [
        {
          id: 'pass',
          name: 'Pass',
          model: 'sonnet',
          continuationMode: 'fresh',
          onFailure: 'abort',
          promptText: 'TASK_REVIEW: review the notes once more.',
          checkpointedFiles: ['notes/**'],
        },
      ],
    },
  ],
});

const ofType = <T extends HankweaveEvent['type']>(events: HankweaveEvent[], type: T) =>
  events.filter((event): event is Extract<HankweaveEvent, { type: T }> => event.type === type);

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function runLoop(
  votes: string[],
  terminateOn: Record<string, unknown>,
  progressFile: unknown,
  appendProgress: boolean,
) {
  world = await makeWorld({
    hank: hank(terminateOn, progressFile),
    script: script({ appendProgress }),
    files: { 'data/votes.txt': `${votes.join('\n')}\n`, 'data/notes.md': 'notes\n' },
  });
  const { runtime, events } = runtimeFor(world);
  await runtime.start();
  const exit = await runtime.finished;
  const executionDir = runtime.executionDir;
  const name = basename(executionDir);
  const layout = sessionLayout(world.baseDir);
  return { runtime, events, exit, executionDir, name, layout, world };
}

const jq = (args: string[], file: string) =>
  execFileSync('jq', [...args, file], { encoding: 'utf8' }).trim();

describe('plateau loops (seed 004) with the real agent', () => {
  it('stops exactly when consensus is met, not on a lone plateau vote, and keeps the seed files true', async () => {
    const { events, exit, name, layout, executionDir, world } = await runLoop(
      [
        'VOTE_CONTINUE',
        'VOTE_STOP',
        'VOTE_CONTINUE',
        'VOTE_STOP',
        'VOTE_STOP_FILE',
        'VOTE_CONTINUE',
      ],
      { consensus: 2, minIterations: 2, maxIterations: 6 },
      { path: 'notes/progress.txt', verify: 'npm test' },
      true,
    );
    expect(exit.exitCode).toBe(0);
    const decisions = ofType(events, 'loop.iteration.decision').map(
      (event) => `${event.data.iteration}:${event.data.decision}:${event.data.source}`,
    );
    expect(decisions).toEqual([
      '0:continue:message',
      '1:stop:message',
      '2:continue:message',
      '3:stop:message',
      '4:stop:result.json',
    ]);
    const completed = ofType(events, 'loop.iteration.completed');
    expect(completed.map((event) => event.data.isFinal)).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(completed.at(-1)?.data).toMatchObject({ iteration: 4, terminationReason: 'plateau' });

    // The loop state's history is what termination decided on.
    const loopSession = `${name}-review`;
    const loopState = await readLoopState(layout.loopStateFile(loopSession));
    expect(loopState).toMatchObject({ status: 'completed', iteration: 5, reason: 'plateau' });
    expect(loopState?.history.map((record) => [record.iteration, record.plateau])).toEqual([
      [1, false],
      [2, true],
      [3, false],
      [4, true],
      [5, true],
    ]);
    expect(loopState?.history[3]?.reasoning).toBe('nothing significant left');

    // The registry: the execution's pipeline session and the loop's session, both completed.
    const { sessions } = await new SessionRegistry(world.baseDir).read();
    expect(sessions[`pipeline-${name}`]).toMatchObject({
      type: 'pipeline',
      status: 'completed',
      execution_dir: executionDir,
      pid: process.pid,
    });
    expect(sessions[`loop-${loopSession}`]).toMatchObject({
      type: 'loop',
      loop_type: 'review',
      max_iterations: 6,
      status: 'completed',
    });

    // The seed's own jq recipes read what we wrote.
    expect(
      jq(
        ['-r', '.sessions | to_entries[] | select(.value.status == "running") | .key'],
        layout.registryFile,
      ),
    ).toBe('');
    expect(jq(['.iteration'], layout.loopStateFile(loopSession))).toBe('5');
    expect(jq(['.reason'], layout.loopStateFile(loopSession))).toBe('"plateau"');
    const pipelineFile = layout.pipelineStateFile(name);
    expect(jq(['.status'], pipelineFile)).toBe('"completed"');
    expect(jq(['-c', '.stages[] | {name, status}'], pipelineFile)).toBe(
      '{"name":"review","status":"completed"}',
    );
    expect(await readPipelineState(pipelineFile)).toMatchObject({
      stages: [{ name: 'review', runs: 6, iterations_run: 5, reason: 'plateau' }],
    });

    // The progress file: created with the seed's header, announced to each fresh agent,
    // appended to by each, and tracked (so checkpointed and rolled back with the loop's files).
    const progress = readFileSync(join(executionDir, 'agentRoot', 'notes', 'progress.txt'), 'utf8');
    expect(progress).toMatch(
      /^# Progress: .+-review\n\nVerify: npm test\n\n## Codebase Patterns\n/,
    );
    expect(progress.match(/^## 2026-11-25 - review$/gm)).toHaveLength(5);
    // (The preflight's HEAD request has no body.)
    const prompts = world.model.requests.filter((request) =>
      JSON.stringify(request.body ?? null).includes('TASK_REVIEW'),
    );
    expect(JSON.stringify(prompts[0]?.body)).toContain('Progress file: notes/progress.txt');
    expect(JSON.stringify(prompts[0]?.body)).toContain('PLATEAU: true');
    expect(
      ofType(events, 'file.updated').some((event) =>
        JSON.stringify(event.data).includes('notes/progress.txt'),
      ),
    ).toBe(true);
    expect(
      ofType(events, 'error').filter((event) => event.data.code === 'PROGRESS_NOT_APPENDED'),
    ).toEqual([]);
  }, 120_000);

  it('never counts a stale result.json twice, warns about a missing decision, and fails the loop on an error', async () => {
    const { events, exit, name, layout, executionDir, runtime } = await runLoop(
      ['VOTE_STOP_FILE', 'VOTE_NONE', 'VOTE_ERROR_FILE', 'VOTE_STOP'],
      { consensus: 2, minIterations: 1, maxIterations: 4 },
      true,
      false,
    );
    // Iteration 2 leaves iteration 1's result.json as it was: a missing decision, not a second
    // "stop" (which would have met consensus 2). Iteration 3's error stops the loop, failed.
    expect(
      ofType(events, 'loop.iteration.decision').map(
        (event) => `${event.data.iteration}:${event.data.decision}`,
      ),
    ).toEqual(['0:stop', '1:missing', '2:error']);
    const codes = ofType(events, 'error').map((event) => event.data.code);
    expect(codes.filter((code) => code === 'LOOP_DECISION_MISSING')).toHaveLength(1);
    expect(codes).toContain('LOOP_DECISION_ERROR');
    expect(ofType(events, 'loop.iteration.completed').at(-1)?.data).toMatchObject({
      iteration: 2,
      isFinal: true,
      terminationReason: 'failure',
    });
    expect(exit.exitCode).toBe(1);
    expect(runtime.getState().runs.at(-1)?.status).toBe('failed');
    const loopState = await readLoopState(layout.loopStateFile(`${name}-review`));
    expect(loopState).toMatchObject({ status: 'failed', reason: 'error', iteration: 3 });
    expect(loopState?.history.map((record) => record.decision)).toEqual([
      'stop',
      'missing',
      'error',
    ]);
    const { sessions } = await new SessionRegistry(layout.projectDir).read();
    expect(sessions[`pipeline-${name}`]).toMatchObject({ status: 'completed' });
    expect(sessions[`pipeline-${name}`]?.note).toMatch(/failed/);

    // `progressFile: true`: the seed's default path, its header, and a warning per agent that
    // added nothing to it.
    const progressPath = join(
      executionDir,
      'agentRoot',
      '.claude',
      'loop-progress',
      `progress-${name}-review.txt`,
    );
    expect(existsSync(progressPath)).toBe(true);
    expect(readFileSync(progressPath, 'utf8')).toBe(
      `# Progress: ${name}-review\n\n## Codebase Patterns\n(Patterns discovered during implementation)\n\n---\n`,
    );
    expect(codes.filter((code) => code === 'PROGRESS_NOT_APPENDED')).toHaveLength(3);
  }, 120_000);
});
