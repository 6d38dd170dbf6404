import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, executionDirOf, runCli, type Sandbox } from './cli-harness.js';

/** A one-codon hank whose scripted agent runs `sleep` in Bash, then says it is done. */
function writeSlowHank(root: string, seconds: number): { hankDir: string; script: string } {
  const hankDir = join(root, 'slow-hank');
  mkdirSync(join(hankDir, 'data'), { recursive: true });
  writeFileSync(join(hankDir, 'data', 'input.txt'), 'nothing to see\n');
  writeFileSync(
    join(hankDir, 'hank.json'),
    JSON.stringify({
      meta: { name: 'slow', version: '1.0.0' },
      hank: [
        {
          id: 'slow',
          name: 'Wait a little',
          model: 'sonnet',
          continuationMode: 'fresh',
          promptText: 'Wait for the slow command, then stop.',
        },
      ],
    }),
  );
  const script = join(hankDir, 'model-script.json');
  writeFileSync(
    script,
    JSON.stringify({
      conversations: [
        {
          name: 'slow',
          match: { marker: 'Wait for the slow command' },
          turns: [
            {
              content: [{ bash: { command: `sleep ${seconds}`, description: 'Wait' } }],
              usage: { inputTokens: 100, outputTokens: 10 },
            },
            {
              content: [{ text: 'Done waiting.' }],
              usage: { inputTokens: 120, outputTokens: 5 },
            },
          ],
        },
      ],
    }),
  );
  return { hankDir, script };
}

describe('hankweave output polish (issue 20, item 6)', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;
  let executionDir: string;
  let headless: string;

  beforeAll(async () => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    const run = await runCli(
      [example.hankDir, example.dataDir, '--scripted-model', example.script, '--headless'],
      { env: sandbox.env },
    );
    expect(run.code, run.stderr).toBe(0);
    headless = run.stdout;
    executionDir = executionDirOf(run.stdout);
  });
  afterAll(() => sandbox.cleanup());

  it('does not report files that existed before a codon started as created', async () => {
    // notes/README.md is copied by observe's rig, before the codon starts; summarize and the
    // polish passes start with it (and observations.md, summary.md) already there.
    expect(headless).not.toMatch(/created notes\/README\.md/);
    expect(headless).toMatch(/observe +created notes\/observations\.md/);
    expect(headless).not.toMatch(/summarize +created notes\/observations\.md/);
    const events = await runCli(['events', '-e', executionDir, '-t', 'file.updated', '-n', 'all'], {
      env: sandbox.env,
    });
    expect(events.code).toBe(0);
    expect(events.stdout).toMatch(/observe +tracked notes\/README\.md \(present at codon start\)/);
    expect(events.stdout).toMatch(/polish-pass#0 +tracked summary\.md \(present at codon start\)/);
    expect(events.stdout).not.toMatch(/created notes\/README\.md/);
    expect(events.stdout).not.toMatch(/polish-pass#\d +created summary\.md/);
  });

  it('refuses an unknown event type with "did you mean", the valid types and a next step', async () => {
    const events = await runCli(['events', '-e', executionDir, '-t', 'codon.complete'], {
      env: sandbox.env,
    });
    expect(events.code).toBe(1);
    expect(events.stdout).toBe('');
    expect(events.stderr).toContain('Unknown event type "codon.complete" for --type');
    expect(events.stderr).toContain('Did you mean "codon.completed"?');
    expect(events.stderr).toMatch(/^→ Valid types: .*codon\.completed.*sentinel\.output/m);
  });

  it('refuses a codon the execution does not have, listing its codons', async () => {
    const events = await runCli(['events', '-e', executionDir, '-c', 'sumarize'], {
      env: sandbox.env,
    });
    expect(events.code).toBe(1);
    expect(events.stderr).toContain('No codon "sumarize" in this execution');
    expect(events.stderr).toContain('Did you mean "summarize"?');
    expect(events.stderr).toMatch(/^→ Codons of this execution: .*observe.*polish-pass#1/m);
    const loop = await runCli(['events', '-e', executionDir, '-c', 'polish-pass', '-n', 'all'], {
      env: sandbox.env,
    });
    expect(loop.code).toBe(0);
    expect(loop.stdout).toMatch(/polish-pass#1/);
  });

  it('never prints a negative zero cost', async () => {
    const events = await runCli(['events', '-e', executionDir, '-t', 'token.usage', '-n', 'all'], {
      env: sandbox.env,
    });
    expect(events.code).toBe(0);
    expect(`${headless}${events.stdout}`).not.toContain('$-');
  });

  it('names the prompt file it looked for when one is missing once the run is under way', async () => {
    const hank = sandbox.copyExample('missing-prompt');
    const summarizePrompt = join(hank.hankDir, 'prompts', 'summarize.md');
    // Valid when validated: observe's rig removes summarize's prompt before summarize starts.
    // Only without the sandbox: in it, the hank directory is read-only to rig commands (issue 31,
    // the containment suite checks that); this case is about the message.
    const config = JSON.parse(readFileSync(join(hank.hankDir, 'hank.json'), 'utf8'));
    config.hank[0].rigSetup.push({
      type: 'command',
      command: { run: `rm ${JSON.stringify(summarizePrompt)}` },
    });
    writeFileSync(join(hank.hankDir, 'hank.json'), JSON.stringify(config));
    const run = await runCli(
      [hank.hankDir, hank.dataDir, '--scripted-model', hank.script, '--headless', '--no-sandbox'],
      { env: sandbox.env },
    );
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain(
      `promptFile prompts/summarize.md not found at ${summarizePrompt} (relative to the hank directory ${hank.hankDir})`,
    );
  });

  it('refuses rig targets and checkpointedFiles that escape the agent root', async () => {
    const hank = sandbox.copyExample('escaping');
    const config = JSON.parse(readFileSync(join(hank.hankDir, 'hank.json'), 'utf8'));
    config.hank[0].rigSetup[0].copy.to = '../outside';
    config.hank[1].checkpointedFiles = ['../../etc/**'];
    writeFileSync(join(hank.hankDir, 'hank.json'), JSON.stringify(config));
    const validate = await runCli(['validate', hank.hankDir, '--json'], { env: sandbox.env });
    expect(validate.code).toBe(1);
    const result = JSON.parse(validate.stdout);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'hank[0].rigSetup[0].copy.to',
          code: 'escapes_agent_root',
        }),
        expect.objectContaining({
          path: 'hank[1].checkpointedFiles[0]',
          code: 'escapes_agent_root',
        }),
      ]),
    );
    const text = await runCli(['validate', hank.hankDir], { env: sandbox.env });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      'hank[0].rigSetup[0].copy.to: "../outside" climbs out of agentRoot',
    );
  });

  describe('--headless heartbeat', () => {
    let slow: { hankDir: string; script: string };
    const env = () => ({ ...sandbox.env, HANKWEAVE_HEARTBEAT_MS: '400' });

    beforeAll(() => {
      slow = writeSlowHank(sandbox.root, 2);
    });

    it('says which tool call is still running while it runs quietly', async () => {
      const run = await runCli(
        [slow.hankDir, join(slow.hankDir, 'data'), '--scripted-model', slow.script, '--headless'],
        { env: env() },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/slow +still running: Bash `sleep 2` \(\d+s\)/);
    });

    it('leaves --json untouched', async () => {
      const run = await runCli(
        [
          slow.hankDir,
          join(slow.hankDir, 'data'),
          '--scripted-model',
          slow.script,
          '--json',
          '--start-new',
        ],
        { env: env() },
      );
      expect(run.code, run.stderr).toBe(0);
      for (const line of run.stdout.trimEnd().split('\n'))
        expect(() => JSON.parse(line)).not.toThrow();
      expect(`${run.stdout}${run.stderr}`).not.toContain('still running');
    });
  });
});
