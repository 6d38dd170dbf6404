import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, createSandbox, executionNames, runCli, type Sandbox } from './cli-harness.js';
import { hasScript, startInPty } from './pty.js';

const ENTER = '\r';
const DOWN = '\u001b[B';
const CTRL_C = '\u0003';

/**
 * Item 7 of issue 32: a bare `hankweave` on a terminal is an interactive start (pick or create a
 * hank, choose data, a model or the dry run, see the validation, run), driven here through a
 * real pseudo-terminal; off a terminal it prints the usage.
 */
describe.runIf(hasScript())('a bare hankweave on a terminal', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());
  const start = (cwd: string) =>
    startInPty([process.execPath, BIN], { env: sandbox.env, cwd, cols: 140 });
  const executions = () => (existsSync(sandbox.baseDir) ? executionNames(sandbox.baseDir) : []);

  it('creates the sample hank, runs it offline as a dry run, and shows the command it stands for', async () => {
    const cwd = join(sandbox.root, 'newcomer');
    mkdirSync(cwd);
    const pty = start(cwd);
    try {
      await pty.waitFor(/Which hank\?[\s\S]*Create a sample hank/);
      pty.type(ENTER);
      await pty.waitFor(/Folder for the new hank/);
      pty.type(ENTER);
      await pty.waitFor(/Which data should the agents read\?[\s\S]*my-hank\/data/);
      pty.type(ENTER);
      await pty.waitFor(
        /Which model answers the agents\?[\s\S]*A dry run on my-hank\/model-script\.json/,
      );
      pty.type(ENTER);
      await pty.waitFor(/Run it now\?/);
      pty.type(ENTER);
      expect(await pty.exited).toBe(0);
      const screen = pty.text();
      expect(screen).toMatch(/\[1\] explore — Explore the data/);
      expect(screen).toContain('my-hank/hank.json is valid');
      expect(screen).toContain(
        'hankweave my-hank my-hank/data --scripted-model my-hank/model-script.json',
      );
      expect(screen).toContain('my-hank: all codons completed');
    } finally {
      pty.kill();
    }
    expect(existsSync(join(cwd, 'my-hank', 'hank.json'))).toBe(true);
    expect(readFileSync(join(cwd, 'my-hank', 'README.md'), 'utf8')).toContain('hankweave . data');
    expect(executions()).toHaveLength(1);
  });

  it('offers the hank of the current directory first, and runs nothing when told no', async () => {
    const before = executions().length;
    const { hankDir } = sandbox.copyExample('here');
    const pty = start(hankDir);
    try {
      await pty.waitFor(/Which hank\?[\s\S]*hello-hank {2}\(here\)/);
      pty.type(ENTER);
      await pty.waitFor(/Which data/);
      pty.type(ENTER);
      await pty.waitFor(/Which model/);
      pty.type(ENTER);
      await pty.waitFor(/Run it now\?/);
      pty.type(`n${ENTER}`);
      expect(await pty.exited).toBe(0);
      expect(pty.text()).toContain('hankweave . data --scripted-model model-script.json');
      expect(pty.text()).toContain('Nothing ran.');
    } finally {
      pty.kill();
    }
    expect(executions()).toHaveLength(before);
  });

  it('stops at Ctrl-C, having run and written nothing', async () => {
    const cwd = join(sandbox.root, 'cancel');
    mkdirSync(cwd);
    const pty = start(cwd);
    try {
      await pty.waitFor(/Which hank\?/);
      pty.type(DOWN);
      pty.type(CTRL_C);
      expect(await pty.exited).toBe(0);
      expect(pty.text()).toContain('Cancelled: nothing ran.');
    } finally {
      pty.kill();
    }
    expect(existsSync(join(cwd, 'my-hank'))).toBe(false);
  });

  it('shows what is wrong with a hank that does not validate, and does not run it', async () => {
    const before = executions().length;
    const { hankDir } = sandbox.copyExample('broken');
    const path = join(hankDir, 'hank.json');
    const hank = JSON.parse(readFileSync(path, 'utf8'));
    hank.hank[0].model = 'sonet';
    writeFileSync(path, JSON.stringify(hank));
    const pty = start(hankDir);
    try {
      await pty.waitFor(/Which hank\?/);
      pty.type(ENTER);
      await pty.waitFor(/Which data/);
      pty.type(ENTER);
      await pty.waitFor(/Which model/);
      pty.type(ENTER);
      expect(await pty.exited).toBe(1);
      const screen = pty.text();
      expect(screen).toContain('hank[0].model: Unknown model "sonet". Did you mean "sonnet"?');
      expect(screen).toMatch(/Fix the fields above in hank\.json, then start again/);
      expect(screen).not.toContain('Run it now?');
    } finally {
      pty.kill();
    }
    expect(executions()).toHaveLength(before);
  });
});

describe('a bare hankweave off a terminal', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());

  it('prints the usage where there is no hank to run', async () => {
    const cwd = join(sandbox.root, 'empty');
    mkdirSync(cwd);
    const run = await runCli([], { env: sandbox.env, cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Usage: hankweave \[options\] \[command\] \[hank\] \[data\]/m);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /^→ No hank\.json here\. On a terminal, a bare `hankweave` starts an interactive start/,
    );
  });
});
