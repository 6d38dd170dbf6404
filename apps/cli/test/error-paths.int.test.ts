import { execFileSync } from 'node:child_process';
import { mkdirSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  type CliResult,
  createSandbox,
  runCli,
  runProcess,
  type Sandbox,
  stripAnsi,
} from './cli-harness.js';

/**
 * Every error a user can cause, through the built CLI: the exit code, the path or field the
 * message names, and a last stderr line that says what to do next (`→ ...`). "report it" (a bug
 * report) is for internal errors only.
 */
describe('error paths of the hankweave command', () => {
  let sandbox: Sandbox;
  let example: { hankDir: string; dataDir: string; script: string };
  const cli = (args: string[], env: NodeJS.ProcessEnv = sandbox.env) => runCli(args, { env });

  beforeAll(() => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
  });
  afterAll(() => sandbox.cleanup());

  /** Asserts the shape every user error has, and returns stderr without colours. */
  function expectUserError(result: CliResult, ...named: string[]): string {
    const stderr = stripAnsi(result.stderr);
    expect(result.code, stderr).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines.at(-1), stderr).toMatch(/^→ \S/);
    expect(stderr).toMatch(/^Error: /m);
    for (const text of named) expect(stderr).toContain(text);
    expect(`${result.stdout}\n${stderr}`).not.toMatch(/report it|report the output/i);
    return stderr;
  }

  it('a hank.json that is not JSON: file, line and column', async () => {
    const dir = join(sandbox.root, 'bad-json');
    mkdirSync(dir);
    writeFileSync(join(dir, 'hank.json'), '{\n  "hank": [,]\n}\n');
    expectUserError(
      await cli([dir, '--scripted-model', example.script]),
      `${join(dir, 'hank.json')}:2:12`,
    );
  });

  it('a missing hank', async () => {
    const missing = join(sandbox.root, 'no-such-hank');
    expectUserError(await cli([missing]), missing);
    expectUserError(await cli(['validate', missing]), missing);
  });

  it('missing data in a dry run, and data under a regular file', async () => {
    const missing = join(sandbox.root, 'no-such-data');
    expectUserError(
      await cli([example.hankDir, missing, '--scripted-model', example.script]),
      missing,
      'does not exist',
    );
    const hankFile = join(example.hankDir, 'hank.json');
    const stderr = expectUserError(
      await cli([
        example.hankDir,
        '--data',
        join(hankFile, 'x'),
        '--scripted-model',
        example.script,
      ]),
      `${hankFile} is a file`,
    );
    expect(stderr).not.toContain('ENOENT: no such file');
  });

  it('an unknown subcommand, an unknown option, a bad flag value, a missing argument', async () => {
    expectUserError(await cli(['statsu']), 'statsu', 'status');
    expectUserError(await cli(['--no-such-flag']), "'--no-such-flag'");
    const status = expectUserError(await cli(['status', '--no-such-flag']), "'--no-such-flag'");
    expect(status).toMatch(/→ Run `.*hankweave status --help`/);
    expectUserError(await cli([example.hankDir, '--port', 'abc']), '--port', 'abc');
    expectUserError(await cli(['validate']), "'hank'");
  });

  it('status -e with a missing execution directory', async () => {
    const missing = join(sandbox.root, 'no-such-execution');
    expectUserError(await cli(['status', '-e', missing]), missing);
  });

  it('an execution directory that is a file', async () => {
    const file = join(sandbox.root, 'execution-file');
    writeFileSync(file, '');
    expectUserError(
      await cli([example.hankDir, '--execution', file, '--scripted-model', example.script]),
      `${file} is a file`,
    );
  });

  it.runIf(process.platform === 'linux')(
    'a base directory under /dev/full (a device, not a directory)',
    async () => {
      const env = { ...sandbox.env, HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: '/dev/full/executions' };
      expectUserError(
        await cli([example.hankDir, '--scripted-model', example.script], env),
        '/dev/full is a file',
      );
    },
  );

  it.runIf(process.platform === 'linux')(
    'a base directory nobody may create (/sys refuses even root)',
    async () => {
      const env = { ...sandbox.env, HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: '/sys/hankweave-test' };
      const stderr = expectUserError(
        await cli([example.hankDir, '--scripted-model', example.script], env),
        '/sys/hankweave-test',
      );
      expect(stderr).toMatch(/Permission denied \((EPERM|EACCES)\)/);
      expect(stderr).toContain('HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR');
    },
  );

  it('an internal error is the one that asks for a bug report', async () => {
    // A preload makes the first write to stdout throw, inside the command: an error that is
    // neither hankweave's nor the file system's, which is what a bug looks like.
    const preload = join(sandbox.root, 'throw-on-first-write.mjs');
    writeFileSync(
      preload,
      [
        'const write = process.stdout.write.bind(process.stdout);',
        'let thrown = false;',
        'process.stdout.write = (...args) => {',
        "  if (!thrown) { thrown = true; throw new TypeError('simulated internal error'); }",
        '  return write(...args);',
        '};',
      ].join('\n'),
    );
    const result = await runProcess(
      process.execPath,
      ['--import', preload, BIN, 'validate', example.hankDir],
      { env: sandbox.env },
    );
    const stderr = stripAnsi(result.stderr);
    expect(result.code).toBe(1);
    expect(stderr).toContain('simulated internal error');
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(/^→ .*report it/);
  });
});

/** Mounts a small tmpfs at `dir` when this process may (root with CAP_SYS_ADMIN), else false. */
function mountTmpfs(dir: string, size: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a full disk (a small tmpfs, where this machine lets the test mount one)', () => {
  let sandbox: Sandbox;
  let disk: string;
  let mounted = false;

  beforeAll(() => {
    sandbox = createSandbox();
    disk = join(sandbox.root, 'small-disk');
    mkdirSync(disk);
    mounted = mountTmpfs(disk, '800k');
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [disk], { stdio: 'ignore' });
    sandbox.cleanup();
  });

  /** Fills the tmpfs until `freeKb` are left. */
  function leaveFree(freeKb: number): void {
    const stats = statfsSync(disk);
    const freeBytes = stats.bavail * stats.bsize;
    writeFileSync(join(disk, 'filler'), Buffer.alloc(Math.max(0, freeBytes - freeKb * 1024)));
  }

  it('names ENOSPC once per codon instead of once per event, and never as an API error', async (context) => {
    if (!mounted) context.skip();
    const example = sandbox.copyExample();
    leaveFree(100);
    const env = { ...sandbox.env, HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR: join(disk, 'executions') };
    const result = await runCli(
      [example.hankDir, '--scripted-model', example.script, '--headless', '-y'],
      { env },
    );
    const output = stripAnsi(`${result.stdout}\n${result.stderr}`);
    expect(result.code, output).toBe(1);
    expect(output).toContain('ENOSPC');
    expect(output).not.toContain('API error in result');
    expect(output).not.toMatch(/report it|report the output/i);
    // A flood was one line per event (dozens per codon); now: the first, then one count.
    const appendLines = output.split('\n').filter((line) => line.includes('journal append'));
    expect(appendLines.length, output).toBeLessThanOrEqual(6);
  });
});
