import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveState } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  createSandbox,
  executionNames,
  runCli,
  type Sandbox,
  startCli,
} from './cli-harness.js';
import { hasScript, startInPty } from './pty.js';

/** The example with summarize's first answer held back, so Ctrl-C lands while it runs. */
function slowExample(sandbox: Sandbox, name: string) {
  const example = sandbox.copyExample(name);
  const script = JSON.parse(readFileSync(example.script, 'utf8')) as {
    conversations: { name: string; turns: { delayMs?: number }[] }[];
  };
  const summarize = script.conversations.find((conversation) => conversation.name === 'summarize');
  if (!summarize?.turns[0]) throw new Error('the example has no summarize conversation');
  summarize.turns[0].delayMs = 60_000;
  const slowScript = join(example.hankDir, 'slow-script.json');
  writeFileSync(slowScript, JSON.stringify(script));
  return { ...example, slowScript };
}

function stateOf(executionDir: string): HankweaveState {
  return JSON.parse(readFileSync(join(executionDir, '.hankweave', 'state.json'), 'utf8'));
}

/** Waits until the newest execution's state shows `codonId` running; returns that execution. */
async function waitUntilRunning(baseDir: string, codonId: string): Promise<string> {
  const started = Date.now();
  for (;;) {
    const names = existsSync(baseDir) ? executionNames(baseDir).sort() : [];
    const newest = names.at(-1);
    if (newest) {
      const dir = join(baseDir, newest);
      try {
        const codon = stateOf(dir).runs[0]?.codons.find((record) => record.codonId === codonId);
        if (codon?.status === 'running') return dir;
      } catch {
        // state.json not written yet
      }
    }
    if (Date.now() - started > 45_000) throw new Error(`${codonId} never ran in ${baseDir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Item 3 of issue 32: an interrupt is a stop. The codon is recorded as interrupted (a failure of
 * type `unknown` flagged `interrupted`, which the original's readers still parse); the summary,
 * `status` and `sessions` say so; the next start resumes the interrupted codon; the summary's
 * checkpoint count is what `checkpoints` lists.
 */
describe.runIf(hasScript())('Ctrl-C and SIGTERM stop a run as interrupted', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());
  const cli = (args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 90_000 });

  it('Ctrl-C in a terminal: recorded, summarised and listed as interrupted, then resumed', async () => {
    const example = slowExample(sandbox, 'ctrl-c');
    const pty = startInPty(
      [
        process.execPath,
        BIN,
        example.hankDir,
        example.dataDir,
        '--scripted-model',
        example.slowScript,
        '--start-new',
      ],
      { env: sandbox.env, cwd: sandbox.root },
    );
    try {
      const executionDir = await waitUntilRunning(sandbox.baseDir, 'summarize');
      pty.type('\u0003');
      expect(await pty.exited).toBe(0);
      const screen = pty.text();
      expect(screen).toContain('hello-hank: interrupted (Ctrl-C)');
      expect(screen).toMatch(
        /■ summarize\s+Summarise the observations.*interrupted by Ctrl-C \(SIGINT\)/,
      );
      expect(screen).toMatch(/^Codons\s+1 completed, 1 interrupted, 1 pending$/m);
      expect(screen).toMatch(
        /^Resume\s+.*\(runs summarize again, the codon that was interrupted\)$/m,
      );
      expect(screen).not.toMatch(/failed: Interrupted/);

      // The record: failed (the run's outcome the original's readers know), as an interruption.
      const record = stateOf(executionDir).runs[0]?.codons.find((c) => c.codonId === 'summarize');
      expect(record).toMatchObject({
        status: 'failed',
        exitCode: -1,
        failureReason: {
          type: 'unknown',
          retriable: true,
          interrupted: true,
          message: 'Interrupted by Ctrl-C (SIGINT) while the codon was active',
        },
      });

      // The summary's checkpoint count is the number `checkpoints` lists (the exit one included).
      const listed = (await cli(['checkpoints', '-e', executionDir, '--json'])).stdout
        .trim()
        .split('\n');
      expect(listed.some((line) => JSON.parse(line).type === 'exit')).toBe(true);
      expect(screen).toMatch(new RegExp(`^Checkpoints\\s+${listed.length}$`, 'm'));

      const status = await cli(['status', '-e', executionDir]);
      expect(status.stdout).toMatch(/^Runs\s+1 \(latest \S+: interrupted\)$/m);
      expect(status.stdout).toMatch(/^Codons\s+1 completed, 1 interrupted, 1 pending$/m);
      expect(status.stdout).toMatch(
        /^Next codon\s+summarize \(it was interrupted; resuming runs it again from the last success\)$/m,
      );
      expect(status.stdout).not.toContain('the last run failed');
      const statusJson = JSON.parse((await cli(['status', '-e', executionDir, '--json'])).stdout);
      expect(statusJson.interruptedCodonId).toBe('summarize');

      const sessions = await cli(['sessions']);
      expect(sessions.stdout).toMatch(/^interrupted\s+pipeline-/m);
      expect(sessions.stdout).not.toMatch(/^killed/m);
      const [session] = JSON.parse((await cli(['sessions', '--json'])).stdout);
      // The registry keeps seed 004's status; the summary says why.
      expect(session).toMatchObject({ status: 'killed', interrupted: true });

      // The next start resumes the interrupted codon (the script answers at once now).
      const resumed = await cli(['--execution', executionDir, '--scripted-model', example.script]);
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(
        'Resuming the interrupted codon summarize: its partial work is rolled back to where observe ended, then it runs again',
      );
      expect(resumed.stdout).not.toContain('failed or crashed');
      expect(resumed.stdout).toMatch(/summarize\s+completed in/);
      expect(resumed.stdout).toContain('all codons completed');
    } finally {
      pty.kill();
    }
  });

  it('SIGTERM without a terminal: the same record and words, naming the signal', async () => {
    const example = slowExample(sandbox, 'sigterm');
    const run = startCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.slowScript, '--start-new'],
      sandbox.env,
    );
    await run.waitFor(/summarize\s+started/, 45_000);
    expect(await run.stop('SIGTERM')).toBe(0);
    expect(run.output()).toMatch(
      /summarize\s+interrupted by SIGTERM while the codon was active \(after /,
    );
    expect(run.output()).toMatch(/^Codons\s+1 completed, 1 interrupted, 1 pending$/m);
    // The first test's session resumed and completed since: this one alone is interrupted.
    const sessions = await cli(['sessions', '--status', 'killed']);
    expect(sessions.stdout.match(/^interrupted\s+pipeline-/gm)?.length).toBe(1);
    const [session] = JSON.parse((await cli(['sessions', '--status', 'killed', '--json'])).stdout);
    expect(session).toMatchObject({ interrupted: true, note: 'interrupted: SIGTERM' });
  });
});
