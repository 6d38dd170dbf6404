import { z } from 'zod';
import { timestampSchema } from '../common.js';

/** One sentinel's counters inside a codon record (seed 000 "Sentinel State"). */
export const sentinelStateSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  loadedAt: timestampSchema,
  unloadedAt: timestampSchema.optional(),
  llmCallCount: z.number().int().nonnegative(),
  failedLLMCalls: z.number().int().nonnegative(),
  lastLlmCallAt: timestampSchema.optional(),
  totalTriggers: z.number().int().nonnegative(),
  totalCost: z.number().nonnegative(),
  status: z.enum(['active', 'unloaded']),
  unloadReason: z.string().optional(),
});
export type SentinelState = z.infer<typeof sentinelStateSchema>;

/** While a codon is active its sentinels are `loaded`... */
export const loadedSentinelsSchema = z.looseObject({
  loaded: z.array(sentinelStateSchema),
  totalCost: z.number().nonnegative(),
});
/** ...and once it is terminal the same array is renamed `executed` (final statistics). */
export const executedSentinelsSchema = z.looseObject({
  executed: z.array(sentinelStateSchema),
  totalCost: z.number().nonnegative(),
});
export type LoadedSentinels = z.infer<typeof loadedSentinelsSchema>;
export type ExecutedSentinels = z.infer<typeof executedSentinelsSchema>;
