import { z } from 'zod';
import { eventBranchSchema } from './server-state-data.js';

/** The parallel branch whose codon the sentinel watches (issue 36); absent outside blocks. Ours. */
const branch = eventBranchSchema.optional();

/**
 * Payloads of the sentinel events (reference §3.3). Each may carry `branch` (ours): the parallel
 * branch of the codon the sentinel watches, as on that codon's `codon.started`.
 */
export const sentinelEventData = {
  'sentinel.loaded': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    branch,
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
    branch,
    reason: z.enum(['codon-complete', 'fatal-error', 'consecutive-failures', 'shutdown']),
    errorType: z.enum(['template', 'configuration', 'corruption', 'resource']).optional(),
    finalCost: z.number(),
    llmCallCount: z.number().int(),
  }),
  'sentinel.error': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    branch,
    errorType: z.enum(['llm-call-failed', 'template-render-failed', 'file-write-failed']),
    message: z.string(),
    retriable: z.boolean(),
    consecutiveFailureCount: z.number().int(),
  }),
  'sentinel.output': z.looseObject({
    sentinelId: z.string(),
    codonId: z.string(),
    branch,
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
    branch,
    triggerNumber: z.number().int(),
    strategy: z.string(),
    eventCount: z.number().int(),
    queueSize: z.number().int(),
  }),
} as const;
