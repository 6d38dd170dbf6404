import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { submitHank } from '@hankweave/queue';
import { startRedis } from '@hankweave/queue/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasControlCharacters } from '../../src/output/escape-control.js';
import { type CliResult, createSandbox, runCli, type Sandbox } from '../cli-harness.js';

// Issue 31: hank and codon names, model text and job names printed terminal escape sequences raw
// (a title change, a cleared screen, the clipboard rewritten by OSC 52). Every user-facing line
// shows control characters escaped; NDJSON stays JSON.

const ESC = '\u001b';
const OSC_TITLE = `${ESC}]0;pwned\u0007`;
const CLEAR = `${ESC}[2J`;
const CLIPBOARD = `${ESC}]52;c;cHduZWQ=\u0007`;

describe('untrusted text on the terminal', () => {
  let sandbox: Sandbox;
  let hankDir: string;
  let headless: CliResult;
  let json: CliResult;
  beforeAll(async () => {
    sandbox = createSandbox();
    hankDir = join(sandbox.root, 'hostile');
    mkdirSync(join(hankDir, 'data'), { recursive: true });
    writeFileSync(join(hankDir, 'data', 'input.txt'), 'input');
    writeFileSync(
      join(hankDir, 'hank.json'),
      JSON.stringify({
        meta: { name: `evil${OSC_TITLE}${CLEAR}`, version: '1.0.0' },
        hank: [
          {
            id: 'work',
            name: `Work\r${ESC}[1A\u202eskrow`,
            model: 'sonnet',
            continuationMode: 'fresh',
            promptText: 'TASK_ESCAPES',
          },
        ],
      }),
    );
    writeFileSync(
      join(hankDir, 'script.json'),
      JSON.stringify({
        conversations: [
          {
            match: { marker: 'TASK_ESCAPES' },
            turns: [
              { content: [{ text: `Look${CLIPBOARD}` }, { bash: `echo 'x${CLEAR}'` }] },
              { content: [{ text: `Done${OSC_TITLE}\u009b2J` }] },
            ],
          },
        ],
      }),
    );
    const args = [hankDir, join(hankDir, 'data'), '--scripted-model', join(hankDir, 'script.json')];
    headless = await runCli([...args, '--headless', '--start-new'], { env: sandbox.env });
    json = await runCli([...args, '--json', '--start-new'], { env: sandbox.env });
  }, 120_000);
  afterAll(() => sandbox?.cleanup());

  it('escapes names and model text in the plain progress lines and the summary', () => {
    expect(headless.code, headless.stderr).toBe(0);
    expect(hasControlCharacters(headless.stdout)).toBe(false);
    expect(hasControlCharacters(headless.stderr)).toBe(false);
    // The text is still there, readable: escaped, not dropped.
    expect(headless.stdout).toContain('evil\\u001b]0;pwned\\u0007\\u001b[2J');
    expect(headless.stdout).toContain('Look\\u001b]52;c;cHduZWQ=\\u0007');
  });

  it('keeps --json lines valid JSON with the same strings, and no raw control character', () => {
    expect(json.code, json.stderr).toBe(0);
    expect(hasControlCharacters(json.stdout)).toBe(false);
    const events = json.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    const said = events.filter((event) => event.type === 'assistant.action');
    expect(said.some((event) => String(event.data.content).includes(CLIPBOARD))).toBe(true);
  });

  it('escapes them in `sessions` and `status` too', async () => {
    for (const args of [
      ['sessions', '--all'],
      ['status', '--data', join(hankDir, 'data')],
    ]) {
      const result = await runCli(args, { env: sandbox.env });
      expect(result.code, result.stderr).toBe(0);
      expect(hasControlCharacters(result.stdout)).toBe(false);
    }
  });

  it('escapes a job name in `jobs`, and a huge one stays one bounded line', async () => {
    const redis = await startRedis();
    try {
      const huge = join(sandbox.root, 'huge');
      mkdirSync(huge);
      writeFileSync(
        join(huge, 'hank.json'),
        JSON.stringify({
          meta: { name: `job${CLIPBOARD}${'n'.repeat(5 * 1024 * 1024)}`, version: '1.0.0' },
          hank: [
            { id: 'a', name: 'A', model: 'sonnet', continuationMode: 'fresh', promptText: 'x' },
          ],
        }),
      );
      for (const hank of [hankDir, huge])
        await submitHank(redis.url, { hank, data: join(hankDir, 'data'), queueName: 'escapes' });
      const result = await runCli(['jobs', '--redis', redis.url, '--queue', 'escapes'], {
        env: sandbox.env,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(hasControlCharacters(result.stdout)).toBe(false);
      expect(result.stdout).toContain('evil\\u001b]0;pwned');
      expect(result.stdout.length).toBeLessThan(10_000);
    } finally {
      await redis.stop();
    }
  }, 60_000);
});
