import type { NewEvent } from '@hankweave/types';

const BASE = Date.parse('2025-01-15T14:30:00.000Z');
const at = (second: number): string => new Date(BASE + second * 1000).toISOString();

/** A valid `info` event without an id, numbered so tests can tell events apart. */
export function infoEvent(n: number): NewEvent<'info'> {
  return { type: 'info', timestamp: at(n), data: { message: `event ${n}` } };
}

const started = (second: number, codonId: string, codonName: string): NewEvent => ({
  type: 'codon.started',
  timestamp: at(second),
  data: { codonId, codonName, sessionId: `ses_${codonId}`, startTime: at(second) },
});

const usage = (second: number, codonId: string, totalCost: number): NewEvent => ({
  type: 'token.usage',
  timestamp: at(second),
  data: {
    codonId,
    inputTokens: 1500,
    outputTokens: 800,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    totalCost,
  },
});

const completed = (
  second: number,
  codonId: string,
  success: boolean,
  cost: number,
  failure?: string,
): NewEvent => ({
  type: 'codon.completed',
  timestamp: at(second),
  data: {
    codonId,
    success,
    cost,
    duration: 60_000,
    exitStatus: success ? { type: 'success' } : { type: 'error', code: 1 },
    ...(failure
      ? { failureReason: { type: 'rate-limit', retriable: true, message: failure } }
      : {}),
  },
});

/**
 * A small run in the shape of seed 003's sample journal: three codons (`observe` and
 * `generate-schema` succeed, `review` fails), agent actions, tool results, a file change, a
 * sentinel, token usage, a warning and a fatal error. 22 events; the query-pattern cases assert
 * on its exact contents.
 */
export function sampleRun(): NewEvent[] {
  return [
    started(0, 'observe', 'Observe Data'),
    {
      type: 'sentinel.loaded',
      timestamp: at(1),
      data: {
        sentinelId: 'narrator',
        codonId: 'observe',
        model: 'claude-haiku',
        triggerType: 'event',
        executionStrategy: 'debounce',
        conversational: false,
        source: 'file',
      },
    },
    {
      type: 'assistant.action',
      timestamp: at(2),
      data: { codonId: 'observe', action: 'thinking', content: 'Analyzing the CSV files...' },
    },
    {
      type: 'tool.result',
      timestamp: at(3),
      data: {
        codonId: 'observe',
        toolUseId: 'tu_1',
        toolName: 'Read',
        result: '...file contents...',
        truncated: false,
        originalLength: 1234,
        executionTimeMs: 50,
        isError: false,
      },
    },
    {
      type: 'file.updated',
      timestamp: at(4),
      data: {
        codonId: 'observe',
        path: 'notes/observations.md',
        filename: 'observations.md',
        content: '# Data Observations\n',
        action: 'created',
      },
    },
    usage(5, 'observe', 0.012),
    {
      type: 'sentinel.output',
      timestamp: at(6),
      data: {
        sentinelId: 'narrator',
        codonId: 'observe',
        triggerNumber: 1,
        outputType: 'text',
        content: 'The agent read the data.',
        cost: 0.001,
        tokens: { input: 100, output: 20 },
        eventCount: 3,
      },
    },
    completed(7, 'observe', true, 0.012),
    started(8, 'generate-schema', 'Generate Schema'),
    {
      type: 'assistant.action',
      timestamp: at(9),
      data: {
        codonId: 'generate-schema',
        action: 'tool_use',
        content: 'Writing the schema',
        toolName: 'Write',
        toolUseId: 'tu_2',
      },
    },
    {
      type: 'tool.result',
      timestamp: at(10),
      data: {
        codonId: 'generate-schema',
        toolUseId: 'tu_2',
        toolName: 'Write',
        result: 'File written',
        truncated: false,
        originalLength: 12,
        executionTimeMs: 20,
        isError: false,
      },
    },
    usage(11, 'generate-schema', 0.0234),
    completed(12, 'generate-schema', true, 0.0234),
    {
      type: 'state.transition',
      timestamp: at(13),
      data: {
        transitionType: 'codon.completed',
        codonId: 'generate-schema',
        transition: { type: 'codon.completed', data: {} },
        resultingState: {
          currentRunId: 'run_1',
          runCount: 1,
          totalCost: 0.0354,
          currentRunCost: 0.0354,
        },
      },
    },
    started(14, 'review', 'Review'),
    {
      type: 'error',
      timestamp: at(15),
      data: {
        message: 'Retrying after rate limit',
        codon: 'review',
        fatal: false,
        severity: 'warning',
      },
    },
    {
      type: 'assistant.action',
      timestamp: at(16),
      data: { codonId: 'review', action: 'message', content: 'Reviewing the schema' },
    },
    usage(17, 'review', 0.005),
    completed(18, 'review', false, 0.005, 'Rate limited by the API'),
    {
      type: 'sentinel.unloaded',
      timestamp: at(19),
      data: {
        sentinelId: 'narrator',
        codonId: 'review',
        reason: 'codon-complete',
        finalCost: 0.001,
        llmCallCount: 1,
      },
    },
    {
      type: 'error',
      timestamp: at(20),
      data: { message: 'Budget exhausted', fatal: true, severity: 'fatal' },
    },
    {
      type: 'server.idle',
      timestamp: at(21),
      data: { reason: 'all-codons-completed', message: 'Done' },
    },
  ];
}
