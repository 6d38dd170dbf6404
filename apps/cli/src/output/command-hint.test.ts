import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  closestCommand,
  commandHintIn,
  detectLauncher,
  LAUNCHER_ENV,
  pathRunsThisCli,
  shellArg,
} from './command-hint.js';

const repoBin = join('/work', 'repo', 'apps', 'cli', 'dist', 'bin.js');
const npxBin = join(
  '/home',
  'u',
  '.npm',
  '_npx',
  'ab12',
  'node_modules',
  'hankweave',
  'dist',
  'bin.js',
);
const localBin = join('/proj', 'node_modules', 'hankweave', 'dist', 'bin.js');
const npxExec = { npm_command: 'exec', npm_lifecycle_event: 'npx' };

describe('detectLauncher()', () => {
  it('is the root script when it set its flag', () => {
    expect(detectLauncher({ [LAUNCHER_ENV]: 'pnpm' }, repoBin)).toBe('pnpm-root');
  });

  it('is npx for a script in the npx cache or a local package run by npx', () => {
    expect(detectLauncher({}, npxBin)).toBe('npx');
    expect(detectLauncher(npxExec, localBin)).toBe('npx');
  });

  it('is the bare bin when npx variables leak into a child that runs the repository build', () => {
    expect(detectLauncher(npxExec, repoBin)).toBe('bin');
    expect(detectLauncher({}, repoBin)).toBe('bin');
  });
});

describe('commandHintIn()', () => {
  it('prefixes the words with the command that works where the user is', () => {
    expect(commandHintIn({ [LAUNCHER_ENV]: 'pnpm' }, repoBin, '--execution', '/x')).toBe(
      'pnpm hankweave --execution /x',
    );
    expect(commandHintIn({}, npxBin, 'status')).toBe('npx hankweave status');
    expect(commandHintIn({}, repoBin, 'status', '-e', '<dir>')).toBe('hankweave status -e <dir>');
  });

  it('names the pnpm version when pnpm itself was fetched by npx', () => {
    const env = {
      [LAUNCHER_ENV]: 'pnpm',
      npm_execpath: join('/root', '.npm', '_npx', 'f00', 'node_modules', 'pnpm', 'bin', 'pnpm.cjs'),
      npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20.20.2 linux x64',
    };
    expect(commandHintIn(env, repoBin, 'sessions')).toBe('npx -y pnpm@10.34.9 hankweave sessions');
  });
});

describe('shellArg()', () => {
  it('quotes only what the shell would split or expand', () => {
    expect(shellArg('/a/b-c_d.json')).toBe('/a/b-c_d.json');
    expect(shellArg("/a b/it's")).toBe(`'/a b/it'\\''s'`);
  });
});

describe('closestCommand()', () => {
  const names = ['validate', 'init', 'status', 'events', 'checkpoints', 'diff', 'rollback', 'ls'];

  it('finds the subcommand a typo meant, swaps included', () => {
    expect(closestCommand('statsu', names)).toBe('status');
    expect(closestCommand('rolback', names)).toBe('rollback');
    expect(closestCommand('Status', names)).toBe('status');
  });

  it('suggests nothing for words that are not close to any command', () => {
    expect(closestCommand('my-hank', names)).toBeUndefined();
    expect(closestCommand('data', names)).toBeUndefined();
    expect(closestCommand('x', names)).toBeUndefined();
  });
});

describe('pathRunsThisCli()', () => {
  it('is true when the first hankweave on PATH links to this bin.js, false for another one', () => {
    const root = mkdtempSync(join(tmpdir(), 'hw-path-'));
    try {
      const dist = join(root, 'clone', 'apps', 'cli', 'dist');
      const other = join(root, 'other', 'dist');
      for (const dir of [dist, other, join(root, 'bin'), join(root, 'bin2')])
        mkdirSync(dir, { recursive: true });
      writeFileSync(join(dist, 'bin.js'), '');
      writeFileSync(join(other, 'bin.js'), '');
      symlinkSync(join(dist, 'bin.js'), join(root, 'bin', 'hankweave'));
      symlinkSync(join(other, 'bin.js'), join(root, 'bin2', 'hankweave'));
      const bin = join(root, 'bin');
      const bin2 = join(root, 'bin2');
      expect(pathRunsThisCli([join(root, 'none'), bin].join(delimiter), dist)).toBe(true);
      // A script runner's node_modules/.bin (pnpm's own launcher there) is not the user's PATH.
      const scriptBin = join(root, 'repo', 'node_modules', '.bin');
      mkdirSync(scriptBin, { recursive: true });
      writeFileSync(join(scriptBin, 'hankweave'), '');
      expect(pathRunsThisCli([scriptBin, bin].join(delimiter), dist)).toBe(true);
      // The first one found is what a shell runs.
      expect(pathRunsThisCli([bin2, bin].join(delimiter), dist)).toBe(false);
      expect(pathRunsThisCli(join(root, 'none'), dist)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
