import type { AgentHarness, AgentOutcome, AgentStartOptions } from '@hankweave/harness';
import { describe, expect, it } from 'vitest';
import { checkModelAccess } from './check-model-access.js';

const OUTCOME: AgentOutcome = {
  exitCode: 0,
  resultReceived: true,
  finalCost: 0.0001,
  finalTokens: {
    inputTokens: 10,
    outputTokens: 1,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
  },
  contextExceeded: false,
  killed: false,
  timedOut: false,
  assistantMessageCount: 1,
};

/** A harness that answers every start with `outcome`, and records what it was asked. */
function stubHarness(outcome: Partial<AgentOutcome> | Error) {
  const started: AgentStartOptions[] = [];
  const harness: AgentHarness = {
    name: 'stub',
    async start(options) {
      started.push(options);
      if (outcome instanceof Error) throw outcome;
      return {
        pid: 900001,
        logPath: options.logPath,
        events: (async function* () {})(),
        kill: async () => undefined,
        outcome: Promise.resolve({ ...OUTCOME, ...outcome }),
      };
    },
  };
  return { harness, started };
}

const env = { ANTHROPIC_API_KEY: 'sk-test', PATH: process.env.PATH };

describe('checkModelAccess()', () => {
  it('sends one request per model and reports latency and cost when it succeeds', async () => {
    const { harness, started } = stubHarness({});
    const [result] = await checkModelAccess({
      models: ['sonnet', 'sonnet'],
      env,
      installed: ['claude-code'],
      loaders: { 'claude-code': async () => harness },
    });
    expect(started).toHaveLength(1);
    expect(started[0]?.env).toMatchObject({ CLAUDE_CODE_MAX_RETRIES: '0' });
    expect(result).toMatchObject({ model: 'sonnet', harness: 'claude-code', status: 'ok' });
    expect(result?.costUsd).toBe(0.0001);
  });

  it('names the suggestion of an unknown model and sends nothing', async () => {
    const { harness, started } = stubHarness({});
    const [result] = await checkModelAccess({
      models: ['sonet'],
      env,
      installed: ['claude-code'],
      loaders: { 'claude-code': async () => harness },
    });
    expect(result).toMatchObject({ status: 'unknown-model', suggestion: 'sonnet' });
    expect(started).toHaveLength(0);
  });

  it('names the package of a harness that is not installed', async () => {
    const [result] = await checkModelAccess({
      models: ['gpt-5.2'],
      env,
      installed: ['claude-code'],
    });
    expect(result).toMatchObject({ status: 'not-installed', harness: 'pi' });
    expect(result?.fix).toContain('@hankweave/pi');
  });

  it('names the key variable when none is set, and sends nothing', async () => {
    const { harness, started } = stubHarness({});
    const [result] = await checkModelAccess({
      models: ['gpt-5.2'],
      env: { PATH: process.env.PATH },
      installed: ['pi'],
      loaders: { pi: async () => harness },
    });
    expect(result).toMatchObject({ status: 'no-key', keyVariable: 'OPENAI_API_KEY' });
    expect(result?.fix).toBe('set OPENAI_API_KEY (or name a local server in OPENAI_BASE_URL)');
    expect(started).toHaveLength(0);
  });

  it('says how to give Claude Code credentials when it has none', async () => {
    const { harness, started } = stubHarness({});
    const [result] = await checkModelAccess({
      models: ['opus'],
      env: { HOME: '/nonexistent/hankweave-doctor-home', PATH: process.env.PATH },
      installed: ['claude-code'],
      loaders: { 'claude-code': async () => harness },
    });
    expect(result).toMatchObject({ status: 'no-key', keyVariable: 'ANTHROPIC_API_KEY' });
    expect(result?.fix).toContain('claude login');
    expect(started).toHaveLength(0);
  });

  it("checks a model once per codon env, with the codon's own key", async () => {
    const { harness, started } = stubHarness({});
    const results = await checkModelAccess({
      models: [
        { model: 'gpt-5.2', env: { OPENAI_API_KEY: 'sk-codon' } },
        { model: 'gpt-5.2', env: { OPENAI_API_KEY: 'sk-codon' } },
        'gpt-5.2',
      ],
      env: { PATH: process.env.PATH },
      installed: ['pi'],
      loaders: { pi: async () => harness },
    });
    expect(results.map((result) => result.status)).toEqual(['ok', 'no-key']);
    expect(started).toHaveLength(1);
    expect(started[0]?.env).toMatchObject({ OPENAI_API_KEY: 'sk-codon' });
  });

  it('reports a harness that does not start, with its error', async () => {
    const { harness } = stubHarness(new Error('claude: not found'));
    const [result] = await checkModelAccess({
      models: ['haiku'],
      env,
      installed: ['claude-code'],
      loaders: { 'claude-code': async () => harness },
    });
    expect(result).toMatchObject({ status: 'launch-failed', error: 'claude: not found' });
  });

  it('sorts a refused key and names the variable and the endpoint', async () => {
    const { harness } = stubHarness({
      errorResultText: 'Failed to authenticate. API Error: 401',
      failureReason: { type: 'api-error', retriable: false, message: 'API auth error' },
    });
    const [result] = await checkModelAccess({
      models: ['sonnet'],
      env,
      anthropicBaseUrl: 'http://127.0.0.1:4010',
      installed: ['claude-code'],
      loaders: { 'claude-code': async () => harness },
    });
    expect(result).toMatchObject({
      status: 'bad-key',
      keyVariable: 'ANTHROPIC_API_KEY',
      endpoint: 'http://127.0.0.1:4010',
      endpointSetting: 'anthropicBaseUrl',
    });
  });

  it('counts a probe the idle watchdog stopped as an unreachable endpoint', async () => {
    const { harness } = stubHarness({ timedOut: true, resultReceived: false });
    const [result] = await checkModelAccess({
      models: ['sonnet'],
      env,
      installed: ['claude-code'],
      loaders: { 'claude-code': async () => harness },
    });
    expect(result).toMatchObject({ status: 'unreachable', endpointSetting: 'default' });
    expect(result?.summary).toContain('https://api.anthropic.com');
  });
});
