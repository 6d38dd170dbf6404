import { z } from 'zod';

/** Payloads of the sentinel events (reference §3.3). */
export const sentinelEventData = {
  'sentinel.loaded': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    model: z.string(),
    triggerType: z.enum(['event', 'sequence']),
    executionStrategy: z.enum(['immediate', 'debounce', 'count', 'timeWindow']),
    conversational: z.boolean(),
    source: z.enum(['file', 'inline']),
    sourcePath: z.string().optional(),
  }),
  'sentinel.unloaded': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    reason: z.enum(['codon-complete', 'fatal-error', 'consecutive-failures', 'shutdown']),
    errorType: z.enum(['template', 'configuration', 'corruption', 'resource']).optional(),
    finalCost: z.number(),
    llmCallCount: z.number().int(),
  }),
  'sentinel.error': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    errorType: z.enum(['llm-call-failed', 'template-render-failed', 'file-write-failed']),
    message: z.string(),
    retriable: z.boolean(),
    consecutiveFailureCount: z.number().int(),
  }),
  'sentinel.output': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    triggerNumber: z.number().int(),
    outputType: z.enum(['text', 'structured']),
    content: z.unknown(),
    cost: z.number(),
    tokens: z.looseObject({ input: z.number(), output: z.number() }),
    eventCount: z.number().int(),
  }),
  'sentinel.triggered': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    triggerNumber: z.number().int(),
    strategy: z.string(),
    eventCount: z.number().int(),
    queueSize: z.number().int(),
  }),
} as const;
