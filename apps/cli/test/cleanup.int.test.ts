import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  createSandbox,
  executionDirOf,
  runCli,
  type Sandbox,
  startCli,
  treeSnapshot,
} from './cli-harness.js';
import { hasScript, startInPty } from './pty.js';

/**
 * Item 7 of issue 32: `hankweave cleanup`, the original's reset of an execution. It removes only
 * what hankweave created in the execution, after a preview of what goes, what stays and what
 * cannot be undone, and never follows a symlink out of it.
 */
describe('hankweave cleanup', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());
  const cli = (args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 90_000 });

  /** A finished dry run of the example, in a fresh copy named `name`. */
  async function finishedRun(name: string) {
    const example = sandbox.copyExample(name);
    const run = await cli([example.hankDir, example.dataDir, '--scripted-model', example.script]);
    expect(run.code).toBe(0);
    return { ...example, executionDir: executionDirOf(run.stdout) };
  }

  it('previews without removing anything, and refuses to remove without a terminal or --yes', async () => {
    const { executionDir } = await finishedRun('preview');
    const before = treeSnapshot(executionDir);
    const preview = await cli(['cleanup', '-e', executionDir, '--dry-run']);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/^ {2}agentRoot\/summary\.md\s+written by /m);
    expect(preview.stdout).toMatch(
      /^ {2}agentRoot\/notes\s+copied by the rig setup of observe \(templates\/notes → notes\)$/m,
    );
    expect(preview.stdout).toMatch(/^ {2}agentRoot\/read_only_data_source\s+the link to the data/m);
    expect(preview.stdout).toMatch(/^ {2}\.hankweave\s+hankweave's state/m);
    expect(preview.stdout).toMatch(/^Cannot be undone/m);
    expect(preview.stdout).toContain('observe: rig command `ls notes`');
    expect(preview.stdout).toContain('observe: Bash `ls read_only_data_source`');
    const refused = await cli(['cleanup', '-e', executionDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^→ Pass --yes to remove them/m);
    expect(treeSnapshot(executionDir)).toEqual(before);
  });

  it('--yes removes what hankweave created, keeps the rest and the data, and forgets the sessions', async () => {
    const { executionDir, dataDir } = await finishedRun('reset');
    const data = treeSnapshot(dataDir);
    writeFileSync(join(executionDir, 'agentRoot', 'mine.txt'), 'a note of my own');
    const result = await cli(['cleanup', '-e', executionDir, '--yes', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.keep).toEqual([
      expect.objectContaining({ path: join(executionDir, 'agentRoot', 'mine.txt') }),
    ]);
    expect(report.executionRemoved).toBe(false);
    expect(report.sessionsRemoved.length).toBeGreaterThan(0);
    expect(treeSnapshot(executionDir)).toEqual({ 'agentRoot/mine.txt': expect.any(String) });
    expect(treeSnapshot(dataDir)).toEqual(data);
    const sessions = JSON.parse((await cli(['sessions', '--all', '--json'])).stdout) as {
      executionDir: string;
    }[];
    expect(sessions.map((session) => session.executionDir)).not.toContain(executionDir);
    // Nor do the sessions' own files stay in the registry's folder (loop state, pipeline runs).
    const claude = join(sandbox.baseDir, '.claude');
    const leftovers = readdirSync(claude, { recursive: true }).map(String);
    expect(leftovers.filter((name) => name.includes(basename(executionDir)))).toEqual([]);
    // Nothing is left that a status could read.
    expect((await cli(['status', '-e', executionDir])).code).toBe(1);
  });

  it('never follows a symlink out of the execution', async () => {
    const { executionDir } = await finishedRun('links');
    const outside = join(sandbox.root, 'precious');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'mine');
    // The rig copy `notes` is now a link to a folder outside: its tracked files are out of reach.
    const notes = join(executionDir, 'agentRoot', 'notes');
    cpSync(notes, join(outside, 'notes'), { recursive: true });
    rmSync(notes, { recursive: true });
    symlinkSync(join(outside, 'notes'), notes);
    symlinkSync(outside, join(executionDir, 'agentRoot', 'escape'));
    const outsideBefore = treeSnapshot(outside);
    const result = await cli(['cleanup', '-e', executionDir, '--yes']);
    expect(result.code).toBe(0);
    expect(treeSnapshot(outside)).toEqual(outsideBefore);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
    // The links themselves: the rig's one removed, the unknown one kept.
    expect(existsSync(notes)).toBe(false);
    expect(existsSync(join(executionDir, 'agentRoot', 'escape'))).toBe(true);
  });

  it('removes a managed execution directory it empties, and the next run starts a new one', async () => {
    const { executionDir, hankDir, dataDir, script } = await finishedRun('managed');
    const result = await cli(['cleanup', '--data', dataDir, '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The execution directory is gone');
    expect(existsSync(executionDir)).toBe(false);
    const again = await cli([hankDir, dataDir, '--scripted-model', script]);
    expect(again.code).toBe(0);
    expect(executionDirOf(again.stdout)).not.toBe(executionDir);
  });

  it('refuses while a runtime runs the execution', async () => {
    const example = sandbox.copyExample('running');
    const script = JSON.parse(readFileSync(example.script, 'utf8'));
    script.conversations[0].turns[0].delayMs = 60_000;
    writeFileSync(example.script, JSON.stringify(script));
    const run = startCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.script],
      sandbox.env,
    );
    try {
      await run.waitFor(/observe\s+started/, 45_000);
      const refused = await cli(['cleanup', '--data', example.dataDir, '--yes']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is running \(pid \d+\)/);
      expect(refused.stderr).toMatch(/^→ Stop it first/m);
    } finally {
      await run.stop('SIGINT');
    }
  });

  it.runIf(hasScript())('asks on a terminal, and removes on y', async () => {
    const { executionDir } = await finishedRun('ask');
    const pty = startInPty([process.execPath, BIN, 'cleanup', '-e', executionDir], {
      env: sandbox.env,
      cwd: sandbox.root,
    });
    try {
      await pty.waitFor(/This cannot be undone\. \[y\/N\]/);
      pty.type('y\r');
      expect(await pty.exited).toBe(0);
      expect(pty.text()).toMatch(/✓ Removed \d+ path/);
      expect(existsSync(join(executionDir, '.hankweave'))).toBe(false);
    } finally {
      pty.kill();
    }
  });

  it('keeps an execution whose state was moved aside: nothing to clean without .hankweave', async () => {
    const { executionDir } = await finishedRun('moved');
    renameSync(join(executionDir, '.hankweave'), join(executionDir, 'moved'));
    const result = await cli(['cleanup', '-e', executionDir, '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not a hankweave execution');
    expect(existsSync(join(executionDir, 'moved'))).toBe(true);
  });
});
