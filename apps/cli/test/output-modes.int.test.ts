import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectHankweave } from '@hankweave/server/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSI,
  BIN,
  createSandbox,
  ESC,
  runCli,
  runProcess,
  type Sandbox,
  startCli,
  stripAnsi,
} from './cli-harness.js';

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

describe('hankweave output modes', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;

  beforeAll(() => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
  });
  afterAll(() => sandbox.cleanup());

  it('--json streams every event as NDJSON on stdout and nothing else', async () => {
    const run = await runCli(
      [
        example.hankDir,
        example.dataDir,
        '--scripted-model',
        example.script,
        '--start-new',
        '--json',
      ],
      { env: sandbox.env },
    );
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const event of events)
      expect(event).toEqual({
        id: expect.any(String),
        type: expect.any(String),
        timestamp: expect.any(String),
        data: expect.any(Object),
      });
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'codon.completed')).toHaveLength(4);
    expect(types).toContain('state.transition');
    expect(types).toContain('token.usage');
    expect(types.at(-1)).toBe('state.transition');
    // The summary and diagnostics go to stderr.
    expect(run.stderr).toMatch(/hello-hank: all codons completed/);
    expect(run.stderr).toMatch(/Codons\s+4 completed/);
  });

  it('colours only when asked: NO_COLOR and a pipe give none, FORCE_COLOR gives some', async () => {
    const plain = await runCli(['checkpoints', '--data', example.dataDir], {
      env: { ...sandbox.env, NO_COLOR: '1' },
    });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/completed\s+polish-pass#1/);
    expect(plain.stdout + plain.stderr).not.toMatch(ANSI);
    const forced = await runCli(['checkpoints', '--data', example.dataDir], {
      env: { ...sandbox.env, FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toMatch(ANSI);
    const diff = await runCli(['diff', 'observe', '--data', example.dataDir], {
      env: { ...sandbox.env, FORCE_COLOR: '1' },
    });
    expect(diff.stdout).toContain(`${ESC}[32m+# Observations${ESC}[39m`);
  });

  it.runIf(hasScript)(
    'redraws the live view in place in a real pseudo-terminal and ends with the summary',
    async () => {
      const command = `stty cols 140 rows 40; ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${[example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new'].map(shellQuote).join(' ')}`;
      const run = await runProcess('script', ['-qfec', command, '/dev/null'], {
        env: { ...sandbox.env, TERM: 'xterm-256color' },
      });
      expect(run.code).toBe(0);
      const screen = run.stdout;
      const cursorUps = screen.split(`${ESC}[`).filter((part) => /^\d+A/.test(part));
      expect(cursorUps.length).toBeGreaterThan(5);
      expect(screen).toContain(`${ESC}[2K`);
      const text = stripAnsi(screen);
      // A frame of a running codon: spinner, then its current tool call.
      expect(text).toMatch(
        /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] observe .*→ (Bash \$ ls read_only_data_source|Write notes\/observations\.md)/,
      );
      expect(text).toMatch(/rig: README\.md/);
      expect(text).toMatch(/hello-hank: all codons completed/);
      expect(text).toMatch(/Codons\s+4 completed/);
      // The cursor is shown again at the end.
      expect(screen.lastIndexOf(`${ESC}[?25h`)).toBeGreaterThan(screen.lastIndexOf(`${ESC}[?25l`));
    },
  );
  it('--no-autostart --port serves the WebSocket protocol: a client runs one codon and shuts down', async () => {
    const cli = startCli(
      [
        example.hankDir,
        example.dataDir,
        '--scripted-model',
        example.script,
        '--start-new',
        '--no-autostart',
        '--port',
        '0',
        '--json',
      ],
      sandbox.env,
    );
    await cli.waitForErrors(/WebSocket: (ws:\/\/127\.0\.0\.1:\d+\S*)/);
    const url = /WebSocket: (\S+)/.exec(cli.errors())?.[1] as string;
    const executionDir = /Execution: (\S+)/.exec(cli.errors())?.[1] as string;
    const { token } = JSON.parse(
      readFileSync(join(executionDir, '.hankweave', 'runtime.lock'), 'utf8'),
    );
    // A second terminal watches read-only through runtime.lock (`--attach`).
    const attached = startCli(['--attach', '-e', executionDir, '--json'], sandbox.env);
    await attached.waitForErrors(/Attached read-only/);
    const client = await connectHankweave(url, { token, mode: 'readandwrite' });
    const completed = client.waitFor((event) => event.type === 'codon.completed', 30_000);
    expect(await client.send({ type: 'codon.next' })).toBeUndefined();
    expect((await completed).data).toMatchObject({ codonId: 'observe', success: true });
    await client.send({ type: 'server.shutdown' }).catch(() => undefined);
    expect(await cli.exited()).toBe(0);
    expect(cli.errors()).toMatch(/hello-hank: stopped on request/);
    expect(cli.errors()).toMatch(/Codons\s+1 completed, 2 pending/);
    const types = cli
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).type);
    expect(types).toContain('codon.completed');
    expect(await attached.exited()).toBe(0);
    const watched = attached
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(watched.map((event) => event.type)).toContain('codon.completed');
    expect(watched.find((event) => event.type === 'codon.completed')?.data).toMatchObject({
      codonId: 'observe',
      success: true,
    });
  });

  it('--attach explains what to do when nothing runs', async () => {
    const run = await runCli(['--attach', '--data', example.dataDir], { env: sandbox.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No runtime is running in .*--port 0/s);
  });
});
