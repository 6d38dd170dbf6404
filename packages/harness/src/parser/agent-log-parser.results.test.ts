import { createModelCatalog } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import {
  assistant,
  init,
  MODEL,
  ofType,
  result,
  run,
  SESSION,
  synthetic,
} from '../../test/helpers/parse-lines.js';

describe('AgentLogParser', () => {
  describe('results', () => {
    it('reads a success result (key order as in 2.1.2xx+) and uses its total_cost_usd', () => {
      const line =
        '{"duration_ms":157,"usage":{"input_tokens":111,"output_tokens":56},"total_cost_usd":0.5,"is_error":false,"num_turns":3,"subtype":"success","result":"Done","session_id":"sess-1","type":"result","structured_output":{"a":1},"subagent_stats":{"spawned":0}}';
      const { events, final, parser } = run([init, line]);
      expect(ofType(events, 'result')).toEqual([
        {
          type: 'result',
          timestamp: new Date(0).toISOString(),
          subtype: 'success',
          isError: false,
          text: 'Done',
          sessionId: SESSION,
          totalCostUsd: 0.5,
          usage: { inputTokens: 111, outputTokens: 56, cacheCreationTokens: 0, cacheReadTokens: 0 },
          numTurns: 3,
          durationMs: 157,
        },
      ]);
      expect(parser.state).toMatchObject({
        resultReceived: true,
        successResult: true,
        successResultText: 'Done',
      });
      expect(ofType(final, 'token.usage')[0]?.data).toMatchObject({
        totalCost: 0.5,
        inputTokens: 111,
        modelId: MODEL,
      });
      // No deltas were seen, so the final figure differs from them: a warning says so.
      expect(ofType(final, 'warning').map((warning) => warning.message)).toEqual([
        "The agent's final cost $0.5000 (total_cost_usd) differs from the running cost $0.0000 priced with the model catalog; the agent's figure is used",
      ]);
    });

    describe('price warnings', () => {
      // An empty catalog: MODEL has no price.
      const unpriced = { models: createModelCatalog([]) };

      it('warns once about an unpriced model, not again when the agent reports its cost', () => {
        const { all } = run(
          [
            init,
            assistant('m1', [{ type: 'text', text: 'a' }]),
            assistant('m2', [{ type: 'text', text: 'b' }]),
            result({ result: 'Done', total_cost_usd: 0.25, usage: { input_tokens: 20 } }),
          ],
          unpriced,
        );
        expect(ofType(all, 'warning').map((warning) => warning.message)).toEqual([
          `No price for model "${MODEL}" in the model catalog: the running cost counts its tokens at $0 until the agent reports its own final cost`,
        ]);
        expect(ofType(all, 'token.usage').at(-1)?.data.totalCost).toBe(0.25);
      });

      it('says the $0 stays when the agent reports no final cost', () => {
        const { all } = run([init, assistant('m1', [{ type: 'text', text: 'a' }])], unpriced);
        expect(ofType(all, 'warning').map((warning) => warning.message)).toEqual([
          expect.stringContaining('No price for model'),
          `The agent reported no final cost: the tokens of "${MODEL}" stay counted at $0 (total $0.0000)`,
        ]);
      });

      it('says nothing when a priced run matches the final cost', () => {
        const { all } = run([
          init,
          assistant('m1', [{ type: 'text', text: 'a' }]),
          result({ result: 'Done' }),
        ]);
        expect(ofType(all, 'warning')).toEqual([]);
      });
    });

    it('treats success with is_error as an error (the disguised SDK errors)', () => {
      const { parser, events } = run([
        init,
        result({ is_error: true, result: 'API Error: 500 Internal server error' }),
      ]);
      expect(ofType(events, 'result')[0]?.isError).toBe(true);
      expect(parser.state).toMatchObject({
        successResult: false,
        errorResultText: 'API Error: 500 Internal server error',
      });
      expect(parser.state.successResultText).toBeUndefined();
    });

    it('ignores an error_during_execution that follows a success', () => {
      const { parser, events } = run([
        init,
        result({ result: 'Done' }),
        result({
          subtype: 'error_during_execution',
          is_error: true,
          errors: ['only prompt commands are supported in streaming mode'],
        }),
      ]);
      expect(ofType(events, 'result').map((event) => [event.isError, event.text])).toEqual([
        [false, 'Done'],
        [true, 'only prompt commands are supported in streaming mode'],
      ]);
      expect(parser.state.errorResultText).toBeUndefined();
      expect(parser.state.successResult).toBe(true);
    });

    it('keeps the first error result text; a result without text gives its subtype', () => {
      const { parser } = run([
        init,
        result({ subtype: 'error_max_turns', is_error: true }),
        result({ subtype: 'error_during_execution', is_error: true, result: 'later' }),
      ]);
      expect(parser.state.errorResultText).toBe('error_max_turns');
    });

    it('prices the result usage when there is no total_cost_usd, else falls back to the deltas', () => {
      const usage = { input_tokens: 1_000_000, output_tokens: 0 };
      expect(run([init, result({ usage })]).parser.finalCost()).toMatchObject({
        finalCost: 3,
        source: 'result-usage',
      });
      const deltasOnly = run([
        init,
        assistant('m', [{ type: 'text', text: 'x' }], usage),
      ]).parser.finalCost();
      expect(deltasOnly).toMatchObject({
        finalCost: 3,
        source: 'deltas',
        finalTokens: { inputTokens: 1_000_000 },
      });
    });

    it('prices a resumed session from its own usage, not the session-wide total_cost_usd', () => {
      const lines = [
        init,
        assistant('m2', [{ type: 'text', text: 'second' }], { input_tokens: 1, output_tokens: 1 }),
        result({
          total_cost_usd: 0.000036,
          usage: { input_tokens: 1, output_tokens: 1 },
          modelUsage: { [MODEL]: { inputTokens: 2, outputTokens: 2, costUSD: 0.000036 } },
        }),
      ];
      const resumed = run(lines, { resumed: true, model: MODEL }).parser.finalCost();
      expect(resumed.finalCost).toBeCloseTo(0.000018, 12);
      expect(resumed.modelUsage?.[MODEL]).toMatchObject({ inputTokens: 1, outputTokens: 1 });
      expect(run(lines).parser.finalCost().finalCost).toBe(0.000036);
    });
  });

  describe('context exceeded and timeouts', () => {
    it.each([
      ['a synthetic API Error: terminated', [synthetic('API Error: terminated')]],
      [
        'an output token maximum message',
        [
          synthetic(
            "API Error: Claude's response exceeded the 32000 output token maximum. To configure this behavior, set CLAUDE_CODE_MAX_OUTPUT_TOKENS.",
          ),
        ],
      ],
      [
        'an output token maximum error result',
        [
          result({
            subtype: 'error_during_execution',
            is_error: true,
            result: 'Response exceeded the output token maximum',
          }),
        ],
      ],
      ['a Prompt is too long result', [result({ is_error: true, result: 'Prompt is too long' })]],
    ])('detects %s, once', (_name, lines) => {
      const { events, parser } = run([init, ...lines, ...lines]);
      expect(ofType(events, 'context.exceeded')).toHaveLength(1);
      expect(parser.state.contextExceeded).toBe(true);
    });

    it('counts compact_boundary only when autoCompact is on', () => {
      const boundary = {
        type: 'system',
        subtype: 'compact_boundary',
        compact_metadata: { trigger: 'auto', pre_tokens: 160000 },
      };
      expect(run([init, boundary], { autoCompact: true }).parser.state.contextExceeded).toBe(true);
      expect(run([init, boundary]).parser.state.contextExceeded).toBe(false);
    });

    it('does not count a model that writes "prompt is too long" in its own text', () => {
      const { parser } = run([
        init,
        assistant('m', [{ type: 'text', text: 'The prompt is too long, I will summarise.' }]),
      ]);
      expect(parser.state.contextExceeded).toBe(false);
    });

    it('reports a synthetic API timeout instead of forwarding it', () => {
      const { events, parser } = run([init, synthetic('API Error: Request timed out.')]);
      expect(ofType(events, 'api.timeout')).toEqual([
        {
          type: 'api.timeout',
          timestamp: new Date(0).toISOString(),
          message: 'API Error: Request timed out.',
        },
      ]);
      expect(ofType(events, 'assistant.action')).toEqual([]);
      expect(parser.state.syntheticTimeout).toBe(true);
    });

    it('forwards other synthetic messages without counting them', () => {
      const { events, parser } = run([init, synthetic('API Error: 529 Overloaded')]);
      expect(ofType(events, 'assistant.action')[0]?.data.content).toBe('API Error: 529 Overloaded');
      expect(parser.state.assistantMessageCount).toBe(0);
      expect(ofType(events, 'token.usage')).toEqual([]);
    });
  });

  describe('tolerance', () => {
    it('never throws on unknown types, broken lines and changed field types', () => {
      const lines = [
        '',
        'not json at all',
        '[1,2]',
        '"a string"',
        '{"type":"assistant","message":{"id":"m","model":"claude-sonnet-4-5","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":',
        { type: 'stream_event', event: { type: 'content_block_delta' } },
        { type: 'rate_limit_event', rate_limit_info: {} },
        { type: 'system', subtype: 'status', status: 'compacting' },
        {
          type: 'system',
          subtype: 'api_retry',
          attempt: 2,
          max_retries: 10,
          retry_delay_ms: 1038,
          error_status: 529,
          error: 'overloaded',
        },
        { type: 'something_new', payload: 1 },
        { type: 'stdout', text: 'plain output' },
        { type: 'stderr', message: 'warning: x' },
        {
          type: 'assistant',
          message: {
            id: 5,
            model: MODEL,
            content: [{ type: 'text', text: 'kept' }, { text: 'no type' }],
            usage: { input_tokens: 'many' },
          },
          session_id: SESSION,
        },
        {
          type: 'result',
          subtype: 'success',
          result: { unexpected: 'object' },
          total_cost_usd: '1',
          session_id: SESSION,
        },
        { noType: true },
      ];
      const { events, parser } = run(lines);
      expect(parser.state.unparsedLineCount).toBe(4);
      expect(ofType(events, 'api.retry')).toEqual([
        {
          type: 'api.retry',
          timestamp: new Date(0).toISOString(),
          attempt: 2,
          maxRetries: 10,
          retryDelayMs: 1038,
          errorStatus: 529,
          error: 'overloaded',
        },
      ]);
      expect(ofType(events, 'stderr').map((event) => event.line)).toEqual(['warning: x']);
      expect(ofType(events, 'assistant.action').map((event) => event.data.content)).toEqual([
        'kept',
      ]);
      expect(ofType(events, 'result')[0]).toMatchObject({ subtype: 'success', isError: false });
      expect(parser.state.resultReceived).toBe(true);
    });

    it('ends cleanly on a log killed mid tool use with a torn last line', () => {
      const { parser, final } = run([
        init,
        assistant('m1', [
          { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'make' } },
        ]),
        '{"type":"user","message":{"content":[{"type":"tool_res',
      ]);
      expect(parser.state).toMatchObject({
        resultReceived: false,
        pendingToolUseCount: 1,
        unparsedLineCount: 1,
      });
      expect(ofType(final, 'token.usage')[0]).toMatchObject({
        final: true,
        data: { inputTokens: 10 },
      });
      expect(parser.finish()).toEqual([]);
    });
  });
});
