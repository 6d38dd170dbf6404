import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, runCli, type Sandbox } from './cli-harness.js';

/**
 * Item 4 of issue 32: every hint names the real cause, once, and says what to do, naming the file.
 */
describe('hints name the real cause', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());
  const cli = (args: string[]) => runCli(args, { env: sandbox.env, timeoutMs: 90_000 });
  const errorLines = (stderr: string) =>
    stderr.split('\n').filter((line) => /^(Error|!)/.test(line));

  it('a scripted conversation one turn short: the conversation and the turn it lacks, in that script', async () => {
    const example = sandbox.copyExample('short');
    const script = JSON.parse(readFileSync(example.script, 'utf8'));
    script.conversations[1].turns.pop();
    writeFileSync(example.script, JSON.stringify(script));
    const run = await cli([example.hankDir, example.dataDir, '--scripted-model', example.script]);
    expect(run.code).toBe(1);
    const warnings = errorLines(run.stderr);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^! The scripted model had no answer: conversation "summarize" has 1 turn\(s\), and the agent asked for turn 2( \(the agent sent that request \d+ times\))?$/,
    );
    expect(run.stderr).toContain(
      `→ Add a turn to conversation "summarize" in ${example.script}: each turn answers one request`,
    );
    // It did match: nothing about markers.
    expect(run.stderr).not.toContain('marker');
    expect(run.stdout).toContain('the agent asked for turn 2');
  });

  it('a missing, malformed or invalid model script: one error naming the file, and what to do', async () => {
    const example = sandbox.copyExample('scripts');
    const missing = join(example.hankDir, 'nope.json');
    const notJson = join(example.hankDir, 'broken.json');
    const invalid = join(example.hankDir, 'invalid.json');
    writeFileSync(notJson, '{"conversations": [');
    writeFileSync(invalid, JSON.stringify({ conversations: [{ turns: [{ content: [] }] }] }));
    const expectations: [string, RegExp, RegExp][] = [
      [missing, /^Error: The model script \S+nope\.json does not exist$/m, /init <dir>/],
      [notJson, /^Error: The model script \S+broken\.json is not JSON: /m, /Fix the JSON of/],
      [
        invalid,
        /^Error: The model script \S+invalid\.json is not a valid script:$/m,
        /invalid\.json; its JSON Schema/,
      ],
    ];
    for (const [script, message, hint] of expectations) {
      const run = await cli([example.hankDir, example.dataDir, '--scripted-model', script]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(errorLines(run.stderr)).toHaveLength(1);
      // Said once: no second line repeating the file-system error.
      expect(run.stderr).not.toMatch(/ENOENT|cannot read script/);
      const last = run.stderr.trimEnd().split('\n').at(-1) ?? '';
      expect(last).toMatch(/^→ /);
      expect(last).toMatch(hint);
    }
  });

  it('validate: an unknown model before the mismatch it causes, and a → line naming the file', async () => {
    const example = sandbox.copyExample('typo');
    const path = join(example.hankDir, 'hank.json');
    const hank = JSON.parse(readFileSync(path, 'utf8'));
    hank.hank[0].model = 'sonet';
    writeFileSync(path, JSON.stringify(hank));
    const run = await cli(['validate', example.hankDir]);
    expect(run.code).toBe(1);
    const bullets = run.stderr.split('\n').filter((line) => line.includes('•'));
    expect(bullets[0]).toContain('hank[0].model: Unknown model "sonet". Did you mean "sonnet"?');
    expect(bullets[1]).toContain('hank[1].model: continue-previous resumes the session of hank[0]');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      `→ Fix the fields above in ${path}, then check again: hankweave validate ${example.hankDir}`,
    );
  });

  it('validate: a valid hank with a data/ folder says how to run it on that folder', async () => {
    const example = sandbox.copyExample('valid');
    const run = await cli(['validate', example.hankDir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`→ Run it: hankweave ${example.hankDir}   (on its data/ folder)`);
  });
});
