import { z } from 'zod';

const turnSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  tokenCount: z.number().int().nonnegative().optional(),
});

/**
 * `.hankweave/sentinels/history/{sentinelId}-codon-{codonId}.json` (seed 001): a conversational
 * sentinel's remembered turns and how they are trimmed.
 */
export const sentinelHistoryFileSchema = z.looseObject({
  turns: z.array(turnSchema),
  metadata: z.looseObject({
    trimStrategy: z.enum(['maxTurns', 'maxTokens']),
    maxTurns: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
  }),
});
export type SentinelHistoryFile = z.infer<typeof sentinelHistoryFileSchema>;
export type SentinelHistoryTurn = z.infer<typeof turnSchema>;

/** The original runtime's history layout: a bare array of `{message: {role, content}, tokens?}`. */
export const legacySentinelHistorySchema = z.array(
  z.looseObject({
    message: z.looseObject({ role: z.string(), content: z.string() }),
    tokens: z.number().optional(),
  }),
);
