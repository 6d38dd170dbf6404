import { writeFileSync } from 'node:fs';
import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor } from '../../test/harness-env.js';

// `when` on the real agent with the scripted model: a test codon writes its results, a fix-up
// codon runs only when tests failed, a loop runs only when asked. What the runtime reads for a
// condition is attacked too: a results file that is a link out of agentRoot, or a FIFO.

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `TASK_${id.toUpperCase()}: do ${id}`,
  checkpointedFiles: ['*.txt', '*.json'],
  ...extra,
});
const writing = (id: string, path: string, content: string) => ({
  match: { marker: `TASK_${id.toUpperCase()}` },
  turns: [
    { content: [{ write: { path, content } }], usage: { inputTokens: 100, outputTokens: 20 } },
    { content: [{ text: 'Done.' }], usage: { inputTokens: 120, outputTokens: 5 } },
  ],
});
const fixWhenFailed = { json: 'results.json', pointer: '/failed', notEquals: 0 };

const outcomes = (events: HankweaveEvent[]) =>
  events
    .filter((event) => event.type === 'codon.completed')
    .map((event) => {
      const data = event.data as { codonId: string; success: boolean; skipReason?: string };
      return `${data.codonId}:${data.success ? 'ok' : data.skipReason ? 'skipped' : 'failed'}`;
    });
const asked = (requests: readonly { body?: unknown }[], marker: string) =>
  requests.filter((request) => JSON.stringify(request.body ?? '').includes(marker)).length;

async function play(hank: unknown[], conversations: unknown[]) {
  const world = await makeWorld({
    hank: { meta: { name: 'conditions', version: '1.0.0' }, hank },
    script: { conversations },
  });
  const { runtime, events } = runtimeFor(world);
  await runtime.start();
  const exit = await runtime.finished;
  await world.close();
  return { exit, events, state: runtime.getState(), world };
}

describe('when conditions with the real agent', () => {
  const fixUp = [codon('test'), codon('fix', { when: fixWhenFailed }), codon('report')];
  const script = (results: string) => [
    writing('test', 'results.json', results),
    writing('fix', 'fix.txt', 'fixed\n'),
    writing('report', 'report.txt', 'report\n'),
  ];

  it('skips the fix-up when the tests passed: recorded with the reason, no agent started', async () => {
    const { exit, events, state, world } = await play(fixUp, script('{"failed": 0}'));
    expect(exit.exitCode).toBe(0);
    expect(outcomes(events)).toEqual(['test:ok', 'fix:skipped', 'report:ok']);
    const fix = state.runs.flatMap((run) => run.codons).find((c) => c.codonId === 'fix');
    expect(fix).toMatchObject({
      status: 'skipped',
      skippedBy: 'condition',
      conditionOf: 'codon',
      skipReason: 'when (results.json /failed ≠ 0) does not hold: results.json /failed is 0',
    });
    expect(asked(world.model.requests, 'TASK_FIX')).toBe(0);
    const completed = events.find(
      (event) => event.type === 'codon.completed' && event.data.codonId === 'fix',
    );
    expect(completed?.data).toMatchObject({ skippedBy: 'condition', cost: 0 });
  });

  it('runs the fix-up when tests failed', async () => {
    const { exit, events, world } = await play(fixUp, script('{"failed": 2}'));
    expect(exit.exitCode).toBe(0);
    expect(outcomes(events)).toEqual(['test:ok', 'fix:ok', 'report:ok']);
    expect(asked(world.model.requests, 'TASK_FIX')).toBeGreaterThan(0);
  });

  it('never reads a results file that is a link out of agentRoot, nor blocks on a FIFO, nor quotes bad JSON', async () => {
    const reasons: Record<string, RegExp> = {
      'ln -s "$OUTSIDE" results.json': /results\.json is a link/,
      'mkfifo results.json': /not a regular file/,
      // Bad JSON with a terminal escape in it: the reason says so without quoting the file.
      'printf \'{"failed": \\033[2J\' > results.json': /results\.json \/failed: not JSON$/,
    };
    for (const [plant, reason] of Object.entries(reasons)) {
      const world = await makeWorld({
        hank: {
          meta: { name: 'conditions', version: '1.0.0' },
          hank: [
            codon('test', {
              rigSetup: [{ type: 'command', command: { run: plant } }],
            }),
            codon('fix', { when: { json: 'results.json', pointer: '/failed', equals: 0 } }),
          ],
        },
        script: {
          conversations: [
            writing('test', 'note.txt', 'tests ran\n'),
            writing('fix', 'fix.txt', 'x\n'),
          ],
        },
      });
      // The link's target says "passed": reading it would skip the fix-up on a lie.
      const outside = `${world.root}/outside.json`;
      writeFileSync(outside, '{"failed": 0}');
      const { runtime, events } = runtimeFor(world, { env: { ...world.env, OUTSIDE: outside } });
      await runtime.start();
      const exit = await runtime.finished;
      await world.close();
      expect(exit.exitCode, plant).toBe(0);
      const fix = runtime
        .getState()
        .runs.flatMap((run) => run.codons)
        .find((c) => c.codonId === 'fix');
      expect(fix, plant).toMatchObject({ status: 'skipped', skippedBy: 'condition' });
      expect(String((fix as { skipReason?: string }).skipReason), plant).toMatch(reason);
      expect(outcomes(events), plant).toEqual(['test:ok', 'fix:skipped']);
    }
  });

  it('skips a whole loop whose condition does not hold; the hank goes on after it', async () => {
    const { exit, events, state } = await play(
      [
        codon('test'),
        {
          type: 'loop',
          id: 'repair',
          name: 'Repair',
          terminateOn: { type: 'iterationLimit', limit: 3 },
          when: { codon: 'test', status: 'failed' },
          codons: [codon('patch'), codon('check')],
        },
        codon('report'),
      ],
      [
        writing('test', 'results.json', '{"failed": 0}'),
        writing('patch', 'patch.txt', 'p\n'),
        writing('check', 'check.txt', 'c\n'),
        writing('report', 'report.txt', 'r\n'),
      ],
    );
    expect(exit.exitCode).toBe(0);
    expect(outcomes(events)).toEqual([
      'test:ok',
      'patch#0:skipped',
      'check#0:skipped',
      'report:ok',
    ]);
    expect(state.executionPlan.map((entry) => entry.codonId)).toEqual([
      'test',
      'patch#0',
      'check#0',
      'report',
    ]);
    expect(state.runs.flatMap((run) => run.codons).filter((c) => c.codonId.includes('#'))).toEqual([
      expect.objectContaining({ status: 'skipped', conditionOf: 'loop' }),
      expect.objectContaining({ status: 'skipped', conditionOf: 'loop' }),
    ]);
    expect(events.some((event) => event.type === 'loop.iteration.completed')).toBe(false);
  });

  it("reads a sentinel's newest structured verdict", async () => {
    const reviewer = {
      id: 'reviewer',
      name: 'Reviewer',
      model: 'anthropic/claude-haiku-4-5',
      trigger: { type: 'event', on: ['*'] },
      execution: { strategy: 'count', threshold: 2 },
      systemPromptText: 'REVIEWER_SENTINEL: give a verdict.',
      userPromptText: 'Review <%= it.events.length %> events.',
      structuredOutput: {
        output: 'object',
        schema: {
          type: 'object',
          properties: { verdict: { type: 'string' } },
          required: ['verdict'],
          additionalProperties: false,
        },
      },
    };
    const verdict = {
      content: [{ object: { verdict: 'fix' } }],
      usage: { inputTokens: 100, outputTokens: 5 },
    };
    const { exit, events, state } = await play(
      [
        codon('work', { sentinels: [{ sentinelConfig: reviewer }] }),
        codon('fix', { when: { sentinel: 'reviewer', pointer: '/verdict', equals: 'fix' } }),
        codon('ship', { when: { sentinel: 'reviewer', pointer: '/verdict', equals: 'ship' } }),
        codon('never', { when: { sentinel: 'silent', equals: 'x' } }),
      ],
      [
        writing('work', 'work.txt', 'w\n'),
        writing('fix', 'fix.txt', 'f\n'),
        writing('ship', 'ship.txt', 's\n'),
        writing('never', 'never.txt', 'n\n'),
        {
          name: 'reviewer',
          match: { marker: 'REVIEWER_SENTINEL' },
          turns: Array.from({ length: 40 }, () => verdict),
        },
      ],
    );
    expect(exit.exitCode).toBe(0);
    expect(
      events.some(
        (event) => event.type === 'sentinel.output' && event.data.sentinelId === 'reviewer',
      ),
    ).toBe(true);
    expect(outcomes(events)).toEqual(['work:ok', 'fix:ok', 'ship:skipped', 'never:skipped']);
    const records = state.runs.flatMap((run) => run.codons);
    expect(records.find((c) => c.codonId === 'ship')).toMatchObject({
      skipReason:
        'when (sentinel reviewer /verdict = "ship") does not hold: sentinel reviewer /verdict is "fix"',
    });
    expect(records.find((c) => c.codonId === 'never')).toMatchObject({
      skipReason:
        'when (sentinel silent output = "x") does not hold: sentinel silent output: no structured output yet',
    });
  });
});
