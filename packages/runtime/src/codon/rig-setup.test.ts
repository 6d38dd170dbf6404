import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rigOperationSchema } from '@hankweave/types';
import { beforeEach, describe, expect, it } from 'vitest';
import { runRigSetup } from './rig-setup.js';

let hankDir: string;
let agentRoot: string;
beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), 'rig-'));
  hankDir = join(root, 'hank');
  agentRoot = join(root, 'agentRoot');
  mkdirSync(join(hankDir, 'templates/report'), { recursive: true });
  mkdirSync(agentRoot);
  writeFileSync(join(hankDir, 'templates/report/intro.md'), '# Intro');
});
const ops = (list: unknown[]) => list.map((op) => rigOperationSchema.parse(op));

describe('runRigSetup()', () => {
  it("never copies into the data link: the user's data behind it stays untouched", async () => {
    const data = mkdtempSync(join(tmpdir(), 'rig-user-data-'));
    writeFileSync(join(data, 'precious.txt'), 'mine');
    symlinkSync(data, join(agentRoot, 'read_only_data_source'));
    for (const to of [
      'read_only_data_source',
      'read_only_data_source/x',
      './read_only_data_source/',
    ]) {
      const result = await runRigSetup({
        operations: ops([{ type: 'copy', copy: { from: 'templates/report', to } }]),
        hankDir,
        agentRoot,
        env: process.env,
      });
      expect(result.fatal?.message).toMatch(/the user's data/);
    }
    expect(readdirSync(data)).toEqual(['precious.txt']);
    expect(readFileSync(join(data, 'precious.txt'), 'utf8')).toBe('mine');
  });

  it('copies, replaces the target, and runs commands in the last copy target', async () => {
    mkdirSync(join(agentRoot, 'report'));
    writeFileSync(join(agentRoot, 'report/stale.md'), 'old');
    const lines: string[] = [];
    const result = await runRigSetup({
      operations: ops([
        { type: 'copy', copy: { from: 'templates/report', to: 'report' } },
        {
          type: 'command',
          command: { run: 'ls; echo "$GREETING" > hello.txt', workingDirectory: 'lastCopied' },
        },
      ]),
      hankDir,
      agentRoot,
      env: { ...process.env, GREETING: 'hi from rig' },
      onOutput: (_, line) => lines.push(line),
    });
    expect(result.fatal).toBeUndefined();
    expect(existsSync(join(agentRoot, 'report/stale.md'))).toBe(false);
    expect(readFileSync(join(agentRoot, 'report/hello.txt'), 'utf8')).toBe('hi from rig\n');
    expect(lines).toContain('intro.md');
  });

  it('stops at a failing command unless it allows failure', async () => {
    const failing = { type: 'command', command: { run: 'echo broken >&2; exit 3' } };
    const after = { type: 'command', command: { run: 'touch after.txt' } };
    const stopped = await runRigSetup({
      operations: ops([failing, after]),
      hankDir,
      agentRoot,
      env: process.env,
    });
    expect(stopped.fatal).toMatchObject({ index: 0, exitCode: 3, failureType: 'command_failed' });
    expect(stopped.fatal?.message).toContain('broken');
    expect(existsSync(join(agentRoot, 'after.txt'))).toBe(false);
    const allowed = await runRigSetup({
      operations: ops([{ ...failing, allowFailure: true }, after]),
      hankDir,
      agentRoot,
      env: process.env,
    });
    expect(allowed.fatal).toBeUndefined();
    expect(allowed.results[0]).toMatchObject({ ok: false, ignored: true });
    expect(existsSync(join(agentRoot, 'after.txt'))).toBe(true);
  });

  it('reports a timeout and refuses copies that leave agentRoot', async () => {
    const slow = await runRigSetup({
      operations: ops([{ type: 'command', command: { run: 'sleep 5' } }]),
      hankDir,
      agentRoot,
      env: process.env,
      commandTimeoutMs: 100,
    });
    expect(slow.fatal?.failureType).toBe('timeout');
    const outside = await runRigSetup({
      operations: ops([{ type: 'copy', copy: { from: 'templates', to: '../outside' } }]),
      hankDir,
      agentRoot,
      env: process.env,
    });
    expect(outside.fatal?.message).toContain('inside agentRoot');
  });
});
