import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { type ScriptedModel, startScriptedModel } from '@hankweave/scripted-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, runCli, type Sandbox, stripAnsi } from './cli-harness.js';

/** A loopback port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A scripted model whose every answer is one turn: a text, or an HTTP error. */
function modelAnswering(turn: { text: string } | { status: number }): Promise<ScriptedModel> {
  const answer =
    'text' in turn
      ? { content: [{ text: turn.text }] }
      : { fail: { kind: 'http-error' as const, status: turn.status }, content: [] };
  return startScriptedModel({ script: { conversations: [{ turns: [answer] }] } });
}

const arrowLines = (output: string) =>
  stripAnsi(output)
    .split('\n')
    .filter((line) => line.startsWith('→ '));

/**
 * Issue 34, part 4: `hankweave doctor` and `--self-test` against the real Claude Code agent, on a
 * scripted model that answers, refuses the key (401) or is not there at all.
 */
describe('hankweave doctor', () => {
  let sandbox: Sandbox;
  /** The agent's environment: a key the scripted model may refuse, a private Claude config. */
  let env: NodeJS.ProcessEnv;
  const models: ScriptedModel[] = [];

  beforeAll(() => {
    sandbox = createSandbox();
    const config = join(sandbox.root, 'claude-config');
    mkdirSync(config);
    env = { ...sandbox.env, CLAUDE_CONFIG_DIR: config, ANTHROPIC_API_KEY: 'sk-not-a-real-key' };
    for (const name of Object.keys(env))
      if (/^(HANKWEAVE_)?(ANTHROPIC_BASE_URL|ANTHROPIC_AUTH_TOKEN|CLAUDE_CODE_)/.test(name))
        delete env[name];
    // As root Claude Code needs IS_SANDBOX=1, as the CLI's dry runs set it.
    if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
  });
  afterAll(async () => {
    await Promise.all(models.map((model) => model.close()));
    sandbox.cleanup();
  });
  const started = async (turn: { text: string } | { status: number }) => {
    const model = await modelAnswering(turn);
    models.push(model);
    return model;
  };

  /** A one-codon hank whose codon uses `model`. */
  const hankWithModel = (name: string, model: string): string => {
    const dir = join(sandbox.root, name);
    mkdirSync(dir, { recursive: true });
    const hank = {
      meta: { name, version: '0.1.0' },
      hank: [
        { id: 'only', name: 'Only', model, continuationMode: 'fresh', promptText: 'Say hello.' },
      ],
    };
    writeFileSync(join(dir, 'hank.json'), JSON.stringify(hank));
    return dir;
  };

  it('passes a model that answers: exit 0, a table row "ok" with latency and cost', async () => {
    const model = await started({ text: 'OK' });
    const hank = hankWithModel('passing', 'sonnet');
    const result = await runCli(['doctor', hank, '--anthropic-base-url', model.url], { env });
    const stdout = stripAnsi(result.stdout);
    expect(result.code, result.stderr).toBe(0);
    expect(stdout).toMatch(/^MODEL\s+HARNESS\s+PROVIDER\s+RESULT\s+USED BY$/m);
    expect(stdout).toMatch(
      /^sonnet\s+claude-code\s+anthropic\s+ok \S+ \$\d+\.\d{4}\s+codon only$/m,
    );
    expect(arrowLines(result.stdout)).toEqual([]);
    // One minimal request, no retries.
    expect(model.requests.filter((request) => request.kind === 'messages')).toHaveLength(1);
    const json = await runCli(['doctor', hank, '--anthropic-base-url', model.url, '--json'], {
      env,
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      models: [{ model: 'sonnet', status: 'ok', usedBy: ['codon only'] }],
    });
  });

  it('reports a key the endpoint refuses (401) in one line naming the variable and the fix', async () => {
    const model = await started({ status: 401 });
    const hank = hankWithModel('bad-key', 'sonnet');
    const result = await runCli(['doctor', hank, '--anthropic-base-url', model.url], { env });
    expect(result.code).toBe(1);
    expect(stripAnsi(result.stdout)).toMatch(/^sonnet\s+claude-code\s+anthropic\s+key refused/m);
    const lines = arrowLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `${model.url} (anthropicBaseUrl) refused the key in ANTHROPIC_API_KEY`,
    );
    expect(lines[0]).toMatch(/ — set ANTHROPIC_API_KEY to a valid key for this endpoint$/);
  });

  it('reports a refused key of a Pi model (OPENAI_BASE_URL) with its own variable', async () => {
    const model = await started({ status: 401 });
    const hank = hankWithModel('bad-key-pi', 'gpt-5.2');
    const url = `${model.url}/v1`;
    const result = await runCli(['doctor', hank], {
      env: { ...env, OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-not-a-real-key' },
      timeoutMs: 90_000,
    });
    expect(result.code).toBe(1);
    expect(stripAnsi(result.stdout)).toMatch(/^gpt-5\.2\s+pi\s+openai\s+key refused/m);
    const lines = arrowLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${url} (OPENAI_BASE_URL) refused the key in OPENAI_API_KEY`);
    expect(lines[0]).toMatch(/ — set OPENAI_API_KEY to a valid key for this endpoint$/);
  });

  it('reports an unreachable ANTHROPIC_BASE_URL in one line naming the URL and the fix', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const hank = hankWithModel('unreachable', 'haiku');
    const startedAt = Date.now();
    const result = await runCli(['doctor', hank], { env: { ...env, ANTHROPIC_BASE_URL: url } });
    expect(Date.now() - startedAt).toBeLessThan(30_000);
    expect(result.code).toBe(1);
    expect(stripAnsi(result.stdout)).toMatch(/^haiku\s+claude-code\s+anthropic\s+unreachable/m);
    const lines = arrowLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`cannot reach ${url} (ANTHROPIC_BASE_URL)`);
    expect(lines[0]).toMatch(/ — start the server it names, or fix ANTHROPIC_BASE_URL$/);
  });

  it('reports an unknown model with its did-you-mean, without any request', async () => {
    const model = await started({ text: 'OK' });
    const hank = hankWithModel('typo', 'sonet');
    const result = await runCli(['doctor', hank, '--anthropic-base-url', model.url], { env });
    expect(result.code).toBe(1);
    const lines = arrowLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^→ sonet: Unknown model "sonet"\. Did you mean "sonnet"\? — use "sonnet"/,
    );
    expect(model.requests).toHaveLength(0);
  });

  it('checks ./hank.json by default, and without one asks for a hank or a model', async () => {
    const hank = hankWithModel('default', 'sonet');
    const here = await runCli(['doctor', '--json'], { env, cwd: hank });
    expect(here.code).toBe(1);
    expect(JSON.parse(here.stdout)).toMatchObject({
      hankPath: join(hank, 'hank.json'),
      ok: false,
      models: [{ model: 'sonet', status: 'unknown-model', suggestion: 'sonnet' }],
    });
    const empty = join(sandbox.root, 'empty');
    mkdirSync(empty);
    const none = await runCli(['doctor'], { env, cwd: empty });
    expect(none.code).toBe(1);
    expect(stripAnsi(none.stderr)).toContain(
      'No hank.json here, and the runtime config names no model',
    );
    expect(arrowLines(none.stderr)[0]).toContain('doctor -m sonnet');
  });
});

describe('--self-test and selfTest: true', () => {
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  let model: ScriptedModel;

  beforeAll(async () => {
    sandbox = createSandbox();
    const config = join(sandbox.root, 'claude-config');
    mkdirSync(config);
    env = { ...sandbox.env, CLAUDE_CONFIG_DIR: config, ANTHROPIC_API_KEY: 'sk-not-a-real-key' };
    for (const name of Object.keys(env))
      if (/^(HANKWEAVE_)?(ANTHROPIC_BASE_URL|ANTHROPIC_AUTH_TOKEN|CLAUDE_CODE_)/.test(name))
        delete env[name];
    if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
    model = await modelAnswering({ status: 401 });
  });
  afterAll(async () => {
    await model.close();
    sandbox.cleanup();
  });

  it('refuses a run whose key is refused before any codon starts, with the same → line', async () => {
    const { hankDir, dataDir } = sandbox.copyExample('self-test');
    const before = model.requests.length;
    const result = await runCli(
      [hankDir, dataDir, '--headless', '--self-test', '--anthropic-base-url', model.url],
      { env },
    );
    expect(result.code).toBe(1);
    const stderr = stripAnsi(result.stderr);
    expect(stderr).toContain('Self-test failed: the run was not started, nothing was created.');
    const lines = arrowLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('refused the key in ANTHROPIC_API_KEY');
    // Only the probe reached the model: no codon's prompt, and no execution was created.
    const requests = model.requests.slice(before).filter((r) => r.kind === 'messages');
    expect(requests).toHaveLength(1);
    expect(existsSync(sandbox.baseDir)).toBe(false);
    expect(stripAnsi(result.stdout)).not.toContain('Execution');
  });

  it('does the same for selfTest: true in hankweave.json', async () => {
    const { hankDir, dataDir } = sandbox.copyExample('self-test-config');
    const cwd = join(sandbox.root, 'configured');
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'hankweave.json'), JSON.stringify({ selfTest: true }));
    const result = await runCli(
      [hankDir, dataDir, '--headless', '--anthropic-base-url', model.url],
      {
        env,
        cwd,
      },
    );
    expect(result.code).toBe(1);
    expect(arrowLines(result.stderr)).toHaveLength(1);
    expect(existsSync(sandbox.baseDir)).toBe(false);
  });

  it('refuses --self-test with --scripted-model, which calls no real model', async () => {
    const { hankDir, dataDir, script } = sandbox.copyExample('self-test-dry');
    const result = await runCli([hankDir, dataDir, '--self-test', '--scripted-model', script], {
      env,
    });
    expect(result.code).toBe(1);
    expect(stripAnsi(result.stderr)).toContain(
      '--self-test checks the real models, and --scripted-model runs without them',
    );
    expect(existsSync(sandbox.baseDir)).toBe(false);
  });

  it('refuses --self-test with --validate, which runs nothing', async () => {
    const { hankDir } = sandbox.copyExample('self-test-validate');
    const result = await runCli([hankDir, '--validate', '--self-test'], { env });
    expect(result.code).toBe(1);
    expect(stripAnsi(result.stderr)).toContain(
      '--self-test checks the models before a run, and --validate runs nothing',
    );
    expect(arrowLines(result.stderr)[0]).toContain('doctor');
  });

  it('lets the run go on when every model answers, saying so in one line', async () => {
    const { hankDir, dataDir, script } = sandbox.copyExample('self-test-pass');
    // The example's own conversations (marked), plus an unmarked one that answers the probe.
    const conversations = JSON.parse(readFileSync(script, 'utf8')).conversations;
    const answering = await startScriptedModel({
      script: { conversations: [...conversations, { turns: [{ content: [{ text: 'OK' }] }] }] },
    });
    try {
      const result = await runCli(
        [hankDir, dataDir, '--headless', '--self-test', '--anthropic-base-url', answering.url],
        { env, timeoutMs: 120_000 },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(stripAnsi(result.stdout)).toMatch(
        /^Self-test: every model answered \(sonnet \S+\)\.$/m,
      );
      expect(stripAnsi(result.stdout)).toMatch(/^Execution\s+\S/m);
    } finally {
      await answering.close();
    }
  });
});
