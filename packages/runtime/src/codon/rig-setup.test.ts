import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanupTempDirs, makeTempDirSync } from '@hankweave/durable-io/testing';
import { rigOperationSchema } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRigSetup } from './rig-setup.js';

afterEach(cleanupTempDirs);

let hankDir: string;
let agentRoot: string;
beforeEach(() => {
  const root = makeTempDirSync('rig-').path;
  hankDir = join(root, 'hank');
  agentRoot = join(root, 'agentRoot');
  mkdirSync(join(hankDir, 'templates/report'), { recursive: true });
  mkdirSync(agentRoot);
  writeFileSync(join(hankDir, 'templates/report/intro.md'), '# Intro');
});
const ops = (list: unknown[]) => list.map((op) => rigOperationSchema.parse(op));

describe('runRigSetup()', () => {
  it("never copies into the data link: the user's data behind it stays untouched", async () => {
    const data = makeTempDirSync('rig-user-data-').path;
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

  describe('copy filtering', () => {
    const write = (files: Record<string, string>) => {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(hankDir, path)), { recursive: true });
        writeFileSync(join(hankDir, path), content);
      }
    };
    const copy = (from: string, to: string) =>
      runRigSetup({
        operations: ops([{ type: 'copy', copy: { from, to } }]),
        hankDir,
        agentRoot,
        env: process.env,
      });
    const listed = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => !entry.isDirectory())
        .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
        .sort();

    it('skips what the defaults ignore when the hank root has no .gitignore', async () => {
      write({
        'templates/app/index.js': 'code',
        'templates/app/node_modules/dep/index.js': 'junk',
        'templates/app/dist/bundle.js': 'junk',
        'templates/app/.venv/bin/python': 'junk',
        'templates/app/server.log': 'junk',
      });
      chmodSync(join(hankDir, 'templates/app/index.js'), 0o755);
      const result = await copy('templates/app', 'app');
      expect(result.fatal).toBeUndefined();
      expect(listed(join(agentRoot, 'app'))).toEqual(['index.js']);
      expect(execFileSync('stat', ['-c', '%a', join(agentRoot, 'app/index.js')]).toString()).toBe(
        '755\n',
      );
    });

    it('follows the root .gitignore (paths from the root) and nested ones, not the defaults', async () => {
      write({
        '.gitignore': 'templates/**/cache/\n',
        'templates/app/cache/big.bin': 'junk',
        'templates/app/dist/kept.js': 'kept: the root .gitignore replaces the defaults',
        'templates/app/.gitignore': '*.tmp\n',
        'templates/app/scratch.tmp': 'junk',
        'templates/app/main.js': 'code',
      });
      const result = await copy('templates/app', 'app');
      expect(result.fatal).toBeUndefined();
      expect(listed(join(agentRoot, 'app'))).toEqual(['.gitignore', 'dist/kept.js', 'main.js']);
    });

    it('copies a file named as `from` even when it is ignored', async () => {
      write({ 'fixtures/seed.log': 'asked for' });
      const result = await copy('fixtures/seed.log', 'seed.log');
      expect(result.fatal).toBeUndefined();
      expect(readFileSync(join(agentRoot, 'seed.log'), 'utf8')).toBe('asked for');
    });

    it('refuses a tree holding a symlink, before removing the target', async () => {
      const secret = makeTempDirSync('rig-secret-').path;
      writeFileSync(join(secret, 'key'), 'secret');
      symlinkSync(join(secret, 'key'), join(hankDir, 'templates/report/key'));
      mkdirSync(join(agentRoot, 'report'));
      writeFileSync(join(agentRoot, 'report/keep.md'), 'still here');
      const result = await copy('templates/report', 'report');
      expect(result.fatal?.message).toMatch(/symlink templates\/report\/key/);
      expect(readFileSync(join(agentRoot, 'report/keep.md'), 'utf8')).toBe('still here');
      expect(existsSync(join(agentRoot, 'report/key'))).toBe(false);
    });

    it('skips an ignored directory that is a symlink without following it', async () => {
      const elsewhere = makeTempDirSync('rig-elsewhere-').path;
      writeFileSync(join(elsewhere, 'outside.txt'), 'never copied');
      symlinkSync(elsewhere, join(hankDir, 'templates/report/node_modules'));
      const result = await copy('templates/report', 'report');
      expect(result.fatal).toBeUndefined();
      expect(listed(join(agentRoot, 'report'))).toEqual(['intro.md']);
    });

    it('does not hang on a .gitignore that is a FIFO', async () => {
      execFileSync('mkfifo', [join(hankDir, '.gitignore')]);
      write({ 'templates/report/dist/x.js': 'junk' });
      const started = Date.now();
      const result = await copy('templates/report', 'report');
      expect(Date.now() - started).toBeLessThan(3000);
      expect(result.fatal).toBeUndefined();
      expect(listed(join(agentRoot, 'report'))).toEqual(['intro.md']);
    });
  });
});
