import { describe, expect, it } from 'vitest';
import { type Failure, startScriptedModel } from '../../src/index.js';
import { type AgentRun, createAgentSandbox, maybeSaveFixture } from '../helpers/claude.js';

// No agent-side retries: each failure reaches the result after one request.
const NO_RETRIES = { CLAUDE_CODE_MAX_RETRIES: '0' };

async function runFailing(
  fail: Failure | Record<string, unknown>,
  env: Record<string, string> = NO_RETRIES,
): Promise<{ run: AgentRun; served: number }> {
  await using model = await startScriptedModel({
    script: {
      conversations: [{ turns: [{ fail: fail as Failure, content: [{ text: 'never seen' }] }] }],
    },
  });
  await using sandbox = await createAgentSandbox();
  const run = await sandbox.run({ baseUrl: model.url, prompt: 'hello', env });
  const served = model.requests.filter((r) => r.match?.served === 'failure').length;
  return { run, served };
}

/** The synthetic assistant message Claude Code writes for an API error, before the result. */
function syntheticError(run: AgentRun) {
  return run.lines.find(
    (line) =>
      line.type === 'assistant' && (line.message as { model: string }).model === '<synthetic>',
  );
}

describe.concurrent('failures reach the stream-json result', () => {
  it('reports a 429 as a rate limit', async () => {
    const { run, served } = await runFailing({ kind: 'rate-limit', retryAfterSeconds: 0 });
    await maybeSaveFixture('rate-limit-429', run);
    expect(served).toBe(1);
    expect(run.result).toMatchObject({ type: 'result', is_error: true, api_error_status: 429 });
    expect(String(run.result?.result)).toMatch(/429/);
    expect(String(run.result?.result)).toMatch(/rate limit/i);
    expect(syntheticError(run)).toMatchObject({ error: 'rate_limit', api_error_status: 429 });
  });

  it('reports a 529 as overloaded', async () => {
    const { run } = await runFailing({ kind: 'overloaded' });
    expect(run.result).toMatchObject({
      is_error: true,
      api_error_status: 529,
      api_error_type: 'overloaded_error',
    });
    expect(String(run.result?.result)).toMatch(/overloaded/i);
  });

  it('reports a 500 as a server error', async () => {
    const { run } = await runFailing({ kind: 'server-error' });
    expect(run.result).toMatchObject({ is_error: true, api_error_status: 500 });
    expect(String(run.result?.result)).toMatch(/500/);
  });

  it('reports a 400 "prompt is too long" as Prompt is too long', async () => {
    const { run } = await runFailing({ kind: 'prompt-too-long' });
    await maybeSaveFixture('prompt-too-long', run);
    expect(run.result).toMatchObject({
      is_error: true,
      api_error_status: 400,
      terminal_reason: 'prompt_too_long',
    });
    expect(String(run.result?.result)).toMatch(/^Prompt is too long/);
  });

  it('reports a stalled request as a timeout (API_TIMEOUT_MS)', async () => {
    const { run, served } = await runFailing(
      { kind: 'stall' },
      { ...NO_RETRIES, API_TIMEOUT_MS: '1500' },
    );
    await maybeSaveFixture('stall-timeout', run);
    expect(served).toBe(1);
    expect(run.result).toMatchObject({ is_error: true });
    expect(String(run.result?.result)).toMatch(/timed out/i);
  });

  it('reports a connection dropped mid-stream as a connection error', async () => {
    const { run, served } = await runFailing({ kind: 'drop' });
    // After a broken stream the agent retries once without streaming, which is dropped too.
    expect(served).toBeGreaterThanOrEqual(1);
    expect(run.result).toMatchObject({ is_error: true, api_error: 'connection_failed' });
    expect(String(run.result?.result)).toMatch(/ECONNRESET|connection/i);
  });

  it('reports a connection dropped before any byte as a connection error', async () => {
    const { run } = await runFailing({ kind: 'drop', phase: 'before-headers' });
    expect(run.result).toMatchObject({ is_error: true, api_error: 'connection_failed' });
    expect(String(run.result?.result)).toMatch(/ECONNRESET|connection/i);
  });

  it('stops the agent with the error code when the script has no turn left', async () => {
    await using model = await startScriptedModel({
      script: { conversations: [{ turns: [{ content: [{ bash: 'echo one' }] }] }] },
    });
    await using sandbox = await createAgentSandbox();
    const run = await sandbox.run({ baseUrl: model.url, prompt: 'hello' });
    expect(model.requests.at(-1)?.error).toMatchObject({ code: 'SCRIPTED_MODEL_NO_TURN' });
    expect(run.result).toMatchObject({ is_error: true, api_error_status: 400 });
    expect(String(run.result?.result)).toContain('SCRIPTED_MODEL_NO_TURN');
  });

  it('recovers when a failure is served a limited number of times', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          {
            turns: [
              {
                fail: { kind: 'rate-limit', retryAfterSeconds: 0 },
                times: 2,
                content: [{ text: 'recovered' }],
              },
            ],
          },
        ],
      },
    });
    await using sandbox = await createAgentSandbox();
    const run = await sandbox.run({ baseUrl: model.url, prompt: 'hello' });
    expect(run.lines.filter((line) => line.subtype === 'api_retry')).toMatchObject([
      { attempt: 1, error_status: 429 },
      { attempt: 2, error_status: 429 },
    ]);
    expect(run.result).toMatchObject({ is_error: false, result: 'recovered' });
    expect(model.requests.map((r) => r.match?.served)).toEqual(['failure', 'failure', 'content']);
  });
});
