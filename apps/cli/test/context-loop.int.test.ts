import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './cli-harness.js';
import { type PrintedEvent, runLifetime } from './torture/cli-lifetime.js';

// A contextExceeded loop on the real Claude Code, answered by the scripted model, through the
// CLI: the documented "keep going until the context is full" pattern. Each iteration's agent runs
// a shell command that counts rounds (`ROUND n DONE`); the model's answer overflows ("prompt is
// too long") once the conversation holds round 2. The loop must end after that iteration, the
// codon after it must run once, and no later start (a plain resume, or a resume after a SIGKILL
// right after the loop's last codon completed) may grow the loop again.

// The conversation overflows once its history holds round 2 (a resumed session carries it).
const overflowAtRound2 = {
  when: { anyToolResultContains: 'ROUND 2 DONE' },
  fail: { kind: 'prompt-too-long' },
};
const countRound = {
  bash: {
    command:
      'n=$(( $(cat rounds.txt 2>/dev/null || echo 0) + 1 )); echo $n > rounds.txt; echo "ROUND $n DONE"',
    description: 'Count the round',
  },
};
const codon = (id: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: prompt,
  checkpointedFiles: ['*.md', '*.txt'],
  ...extra,
});

/** The hank and script of one variant: the overflow comes in an extension, or in a first turn. */
function variant(where: 'extension' | 'first-turn') {
  const work = codon('work', 'TASK_WORK: do one round.', {
    continuationMode: 'continue-previous',
    onFailure: 'abort',
    ...(where === 'extension'
      ? { exhaustWithPrompt: 'TASK_MORE: keep going.', maxExtensions: 2 }
      : {}),
  });
  const hank = {
    meta: { name: `context-loop-${where}`, version: '1.0.0' },
    hank: [
      codon('plan', 'TASK_PLAN: write plan.md.'),
      {
        type: 'loop',
        id: 'grow',
        name: 'Grow',
        terminateOn: { type: 'contextExceeded' },
        codons: [work],
      },
      codon('report', 'TASK_REPORT: write report.md.'),
    ],
  };
  const writeThen = (path: string, text: string) => [
    { content: [{ write: { path, content: `# ${text}\n` } }] },
    { content: [{ text: `${text} written.` }] },
  ];
  const round = { content: [countRound] };
  const script = {
    conversations: [
      { name: 'plan', match: { marker: 'TASK_PLAN' }, turns: writeThen('plan.md', 'Plan') },
      {
        name: 'work',
        match: { marker: 'TASK_WORK' },
        turns: [
          where === 'first-turn' ? { choose: [overflowAtRound2, round] } : round,
          { content: [{ text: 'Round done.' }] },
        ],
      },
      {
        name: 'more',
        match: { marker: 'TASK_MORE' },
        turns: [{ choose: [overflowAtRound2, { content: [{ text: 'Kept going.' }] }] }],
      },
      { name: 'report', match: { marker: 'TASK_REPORT' }, turns: writeThen('report.md', 'Report') },
    ],
  };
  return { hank, script };
}

interface Recorded {
  codonId: string;
  status: string;
  contextExceeded?: boolean;
}

const recordsOf = (executionDir: string): Recorded[] => {
  const state = JSON.parse(
    readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'),
  ) as { runs: { codons: Recorded[] }[] };
  return [...state.runs].reverse().flatMap((run) => run.codons);
};
/** The codons that completed (an attempt the kill cut short did not). */
const finished = (records: Recorded[]) =>
  records.filter((record) => record.status === 'completed').map((record) => record.codonId);
const loopEnds = (events: PrintedEvent[]) =>
  events
    .filter((event) => event.type === 'loop.iteration.completed' && event.data.isFinal === true)
    .map((event) => `${event.data.iteration}:${event.data.terminationReason}`);

describe.each(['extension', 'first-turn'] as const)(
  'a contextExceeded loop that overflows in its %s',
  (where) => {
    let sandbox: Sandbox;
    let spec: { hankDir: string; dataDir: string; script: string; env: NodeJS.ProcessEnv };
    beforeAll(() => {
      sandbox = createSandbox();
      const hankDir = join(sandbox.root, 'hank');
      const dataDir = join(sandbox.root, 'data');
      mkdirSync(hankDir, { recursive: true });
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(join(dataDir, 'notes.txt'), 'user data\n');
      const { hank, script } = variant(where);
      writeFileSync(join(hankDir, 'hank.json'), JSON.stringify(hank, null, 2));
      writeFileSync(join(hankDir, 'model-script.json'), JSON.stringify(script, null, 2));
      spec = { hankDir, dataDir, script: join(hankDir, 'model-script.json'), env: sandbox.env };
    });
    afterAll(() => sandbox.cleanup());

    // extension: work#0 rounds 1 (its extensions see round 1), work#1 round 2 and its first
    // extension overflows. first-turn: work#2's first request already holds round 2.
    const iterations =
      where === 'extension' ? ['work#0', 'work#1'] : ['work#0', 'work#1', 'work#2'];
    const last = iterations.at(-1) as string;

    it('ends after that iteration, runs the next codon, and a second start adds nothing', async () => {
      const executionDir = join(sandbox.root, 'plain');
      const first = await runLifetime({ ...spec, executionDir });
      expect(first.code, first.stderr).toBe(0);
      expect(loopEnds(first.events)).toEqual([`${iterations.length - 1}:context_exceeded`]);
      const records = recordsOf(executionDir);
      expect(finished(records)).toEqual(['plan', ...iterations, 'report']);
      expect(records.find((record) => record.codonId === last)).toMatchObject({
        status: 'completed',
        contextExceeded: true,
      });
      const again = await runLifetime({ ...spec, executionDir });
      expect(again.code, again.stderr).toBe(0);
      expect(again.events.filter((event) => event.type === 'codon.started')).toEqual([]);
      expect(finished(recordsOf(executionDir))).toEqual(['plan', ...iterations, 'report']);
    }, 180_000);

    it('after a SIGKILL right after the last iteration completed, the resume runs report once and no iteration', async () => {
      const executionDir = join(sandbox.root, 'killed');
      const killed = await runLifetime({
        ...spec,
        executionDir,
        trigger: {
          kind: 'line',
          matches: (event) => event.type === 'codon.completed' && event.data.codonId === last,
          nth: 1,
        },
      });
      expect(killed.killed).toBe(true);
      expect(finished(recordsOf(executionDir))).toEqual(['plan', ...iterations]);
      const resumed = await runLifetime({ ...spec, executionDir });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(
        resumed.events
          .filter((event) => event.type === 'codon.started')
          .map((event) => event.data.codonId),
      ).toEqual(['report']);
      expect(finished(recordsOf(executionDir))).toEqual(['plan', ...iterations, 'report']);
    }, 180_000);
  },
);
