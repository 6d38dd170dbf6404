import { getEventListeners } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { createFileJournal, type EventJournal } from '@hankweave/journal';
import type { NewEvent } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Terminal } from '../output/terminal.js';
import { parallelState } from '../output/test-parallel-state.js';
import { eventsCommand } from './events.js';

const plain = (text: string) => text;

/** A terminal that keeps what is printed (the command's only output channel). */
function recordingTerminal(): Terminal & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    isTTY: false,
    color: false,
    columns: 120,
    out: (line = '') => lines.push(line),
    err: (line = '') => lines.push(line),
    write: (text) => lines.push(text),
    style: { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain },
  };
}

const info = (message: string): NewEvent => ({
  type: 'info',
  timestamp: new Date().toISOString(),
  data: { message },
});

const completed = (codonId: string): NewEvent => ({
  type: 'codon.completed',
  timestamp: new Date().toISOString(),
  data: { codonId, success: true, cost: 0, duration: 10, exitStatus: { type: 'success' } },
});

async function waitUntil(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('eventsCommand()', () => {
  let executionDir: string;
  let journal: EventJournal;

  beforeEach(async () => {
    executionDir = (await makeTempDir('events-command-')).path;
    journal = await createFileJournal({ hankweaveDir: join(executionDir, '.hankweave') });
    await journal.appendMany([info('first'), completed('observe'), completed('polish-pass#0')]);
    await journal.flush();
  });

  afterEach(async () => {
    await journal.close();
    await cleanupTempDirs();
  });

  describe('--follow', () => {
    it('keeps at most one abort listener however long it follows, and none after it stops', async () => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      const terminal = recordingTerminal();
      const abort = new AbortController();
      const listenerCounts: number[] = [];
      const following = eventsCommand(
        terminal,
        { execution: executionDir, follow: true, tail: '0', type: ['info'], pollMs: 1 },
        abort.signal,
      );
      try {
        // Well over the default limit of 10 listeners: hundreds of polls.
        for (let round = 0; round < 30; round++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          listenerCounts.push(getEventListeners(abort.signal, 'abort').length);
        }
        await journal.append(info('later'));
        await journal.flush();
        await waitUntil(() => terminal.lines.some((line) => line.includes('later')));
      } finally {
        abort.abort();
      }
      await expect(following).resolves.toBe(0);
      process.off('warning', onWarning);
      expect(Math.max(...listenerCounts)).toBeLessThanOrEqual(1);
      expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual(
        [],
      );
      expect(terminal.lines.filter((line) => line.includes('info'))).toHaveLength(2);
    });
  });

  describe('--type', () => {
    it('refuses an unknown type with a "did you mean" and the valid types', async () => {
      const failure = eventsCommand(recordingTerminal(), {
        execution: executionDir,
        type: ['codon.complete'],
      });
      await expect(failure).rejects.toMatchObject({
        code: 'CLI_USAGE',
        message: expect.stringContaining('Did you mean "codon.completed"?'),
        hint: expect.stringContaining('sentinel.output'),
      });
    });

    it('refuses a prefix that matches no type and accepts one that does', async () => {
      await expect(
        eventsCommand(recordingTerminal(), { execution: executionDir, type: ['sentinal.*'] }),
      ).rejects.toMatchObject({
        code: 'CLI_USAGE',
        message: expect.stringContaining('"sentinel.*"'),
      });
      const terminal = recordingTerminal();
      await expect(
        eventsCommand(terminal, { execution: executionDir, type: ['codon.*'] }),
      ).resolves.toBe(0);
      expect(terminal.lines).toHaveLength(2);
    });

    it('accepts a type only the journal knows (written by a newer runtime)', async () => {
      await journal.close();
      const { appendFileSync } = await import('node:fs');
      appendFileSync(
        join(executionDir, '.hankweave', 'events', 'events.jsonl'),
        `${JSON.stringify({ id: 'evt_new', type: 'agent.reflection', timestamp: new Date().toISOString(), data: {} })}\n`,
      );
      journal = await createFileJournal({ hankweaveDir: join(executionDir, '.hankweave') });
      const terminal = recordingTerminal();
      await expect(
        eventsCommand(terminal, { execution: executionDir, type: ['agent.reflection'] }),
      ).resolves.toBe(0);
      expect(terminal.lines).toHaveLength(1);
    });
  });

  describe('--codon', () => {
    it('refuses a codon the execution does not have, listing its codons', async () => {
      await expect(
        eventsCommand(recordingTerminal(), { execution: executionDir, codon: ['obsrve'] }),
      ).rejects.toMatchObject({
        code: 'CLI_USAGE',
        message: expect.stringContaining('Did you mean "observe"?'),
        hint: expect.stringContaining('observe, polish-pass, polish-pass#0'),
      });
    });

    it('accepts a loop codon id without its iteration', async () => {
      const terminal = recordingTerminal();
      await expect(
        eventsCommand(terminal, { execution: executionDir, codon: ['polish-pass'] }),
      ).resolves.toBe(0);
      expect(terminal.lines).toHaveLength(1);
      expect(terminal.lines[0]).toContain('polish-pass#0');
    });
  });

  describe('a parallel block', () => {
    beforeEach(async () => {
      await writeFile(
        join(executionDir, '.hankweave', 'state.json'),
        JSON.stringify(parallelState()),
      );
      await journal.appendMany([completed('style'), completed('tests'), completed('plan')]);
      await journal.flush();
    });

    it("prefixes a branch's codon with its block/branch", async () => {
      const terminal = recordingTerminal();
      await eventsCommand(terminal, { execution: executionDir, type: ['codon.completed'] });
      const [style, tests, plan] = terminal.lines.slice(-3).map((line) => line.slice(38));
      expect(style).toMatch(/^\[review\/left\] style /);
      expect(tests).toMatch(/^\[review\/right\] tests /);
      expect(plan).toMatch(/^plan {11}/);
    });

    it('--branch keeps the events of the named branches (block/branch, or a unique branch id)', async () => {
      const terminal = recordingTerminal();
      await eventsCommand(terminal, { execution: executionDir, branch: ['review/left'] });
      expect(terminal.lines).toHaveLength(1);
      expect(terminal.lines[0]).toContain('[review/left] style');
      const both = recordingTerminal();
      await eventsCommand(both, { execution: executionDir, branch: ['left,right'], json: true });
      expect(both.lines.map((line) => JSON.parse(line).data.codonId)).toEqual(['style', 'tests']);
    });

    it('--follow --branch follows a codon the plan gains while it runs', async () => {
      const terminal = recordingTerminal();
      const abort = new AbortController();
      const following = eventsCommand(
        terminal,
        { execution: executionDir, follow: true, tail: '0', branch: ['review/left'], pollMs: 5 },
        abort.signal,
      );
      try {
        const state = parallelState();
        state.executionPlan.splice(2, 0, {
          codonId: 'lint#1',
          codon: { id: 'lint', name: 'Lint' },
          parallelContext: { blockId: 'review', role: 'branch', branchId: 'left' },
        });
        await writeFile(join(executionDir, '.hankweave', 'state.json'), JSON.stringify(state));
        await journal.appendMany([
          {
            type: 'codon.started',
            timestamp: new Date().toISOString(),
            data: {
              codonId: 'lint#1',
              codonName: 'Lint',
              sessionId: 's',
              startTime: new Date().toISOString(),
            },
          } as NewEvent,
          completed('lint#1'),
          completed('tests'),
        ]);
        await journal.flush();
        await waitUntil(() => terminal.lines.length >= 3);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        abort.abort();
        await following;
      }
      // `--tail 0` prints every event: left's `style` first, then what followed (not `tests`).
      expect(terminal.lines).toHaveLength(3);
      expect(terminal.lines[0]).toContain('[review/left] style');
      for (const line of terminal.lines.slice(1)) expect(line).toContain('[review/left] lint#1');
    });

    it('--branch refuses a branch the execution does not have, listing its branches', async () => {
      await expect(
        eventsCommand(recordingTerminal(), { execution: executionDir, branch: ['review/lft'] }),
      ).rejects.toMatchObject({
        code: 'CLI_USAGE',
        message: expect.stringContaining('Did you mean "review/left"?'),
        hint: expect.stringContaining('review/left, review/right'),
      });
    });
  });
});
