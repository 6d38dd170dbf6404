import { describe, expect, it } from 'vitest';
import {
  maybeRecordFixture,
  NO_RETRIES,
  ofType,
  readLog,
  runToEnd,
  scriptedAgent,
} from '../test/helpers/scripted-agent.js';

// Each failure kind of @hankweave/scripted-model, through the real Claude Code. The agent's own
// retries are off (CLAUDE_CODE_MAX_RETRIES=0), so every case ends in about a second.

describe.concurrent('ClaudeCodeHarness failures with the real agent', () => {
  it('classifies a 429 as a retriable rate limit with its wait', async () => {
    const agent = await scriptedAgent(
      { conversations: [{ turns: [{ fail: { kind: 'rate-limit', retryAfterSeconds: 7 } }] }] },
      NO_RETRIES,
    );
    try {
      const options = agent.options();
      const { outcome } = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'rate-limit-429');
      expect(outcome).toMatchObject({ exitCode: 1, resultReceived: true, contextExceeded: false });
      expect(outcome.failureReason).toEqual({
        type: 'rate-limit',
        retriable: true,
        message: expect.stringContaining('429'),
        retryAfterMs: 7000,
      });
    } finally {
      await agent.dispose();
    }
  });

  it('classifies a 529 as a retriable API error', async () => {
    const agent = await scriptedAgent(
      { conversations: [{ turns: [{ fail: { kind: 'overloaded' } }] }] },
      NO_RETRIES,
    );
    try {
      const options = agent.options();
      const { outcome } = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'overloaded-529');
      expect(outcome.failureReason).toMatchObject({ type: 'api-error', retriable: true });
      expect(outcome.failureReason?.message).toMatch(/^API server error: .*529/);
    } finally {
      await agent.dispose();
    }
  });

  it('reports a 400 prompt too long as context exceeded', async () => {
    const agent = await scriptedAgent(
      { conversations: [{ turns: [{ fail: { kind: 'prompt-too-long' } }] }] },
      NO_RETRIES,
    );
    try {
      const options = agent.options();
      const { events, outcome } = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'prompt-too-long');
      expect(ofType(events, 'context.exceeded')).toHaveLength(1);
      expect(outcome.contextExceeded).toBe(true);
      expect(outcome.failureReason).toMatchObject({ type: 'api-error', retriable: false });
      expect(outcome.failureReason?.message).toMatch(/^API invalid request: Prompt is too long/);
    } finally {
      await agent.dispose();
    }
  });

  it('classifies a dropped connection as a retriable transport error', async () => {
    const agent = await scriptedAgent(
      { conversations: [{ turns: [{ fail: { kind: 'drop', phase: 'before-headers' } }] }] },
      NO_RETRIES,
    );
    try {
      const options = agent.options();
      const { outcome } = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'connection-dropped');
      expect(outcome.failureReason).toMatchObject({ type: 'api-error', retriable: true });
      expect(outcome.failureReason?.message).toMatch(/^API transport error: .*ECONNRESET/);
    } finally {
      await agent.dispose();
    }
  });

  it('stops a stalled agent after the idle timeout and writes a synthetic result', async () => {
    const agent = await scriptedAgent({
      conversations: [{ turns: [{ fail: { kind: 'stall' } }] }],
    });
    try {
      const options = agent.options({ idleTimeoutMs: 3000 });
      const started = Date.now();
      const { events, outcome } = await runToEnd(await agent.harness.start(options));
      await maybeRecordFixture(options.logPath, 'idle-timeout');
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(outcome).toMatchObject({
        timedOut: true,
        killed: false,
        resultReceived: true,
        signal: 'SIGTERM',
        failureReason: { type: 'timeout', retriable: true },
      });
      // Usually the last line; under load the agent may print its init line while stopping.
      const synthetic = (await readLog(options.logPath)).find((line) => line.type === 'result');
      expect(Object.keys(synthetic ?? {}).sort()).toEqual(
        [
          'type',
          'subtype',
          'is_error',
          'result',
          'num_turns',
          'duration_ms',
          'duration_api_ms',
          'session_id',
          'timestamp',
        ].sort(),
      );
      expect(synthetic).toMatchObject({
        type: 'result',
        subtype: 'error',
        is_error: true,
        num_turns: 0,
      });
      const sessionId = ofType(events, 'session.started')[0]?.sessionId;
      expect([sessionId, '']).toContain(synthetic?.session_id);
    } finally {
      await agent.dispose();
    }
  });
});
