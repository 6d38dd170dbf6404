import { z } from 'zod';

/**
 * Payloads of the connection-state events: sent to one client only, never journaled.
 * `history.batch` carries already-validated journal events, so they are kept as loose envelopes
 * here (a batch from a newer server must not fail on an event type this version lacks).
 */
export const connectionEventData = {
  'server.ready': z.looseObject({
    serverVersion: z.string(),
    executionPath: z.string(),
    agentRootPath: z.string(),
    dataPath: z.string(),
    port: z.number().int(),
    proxyPort: z.number().int().optional(),
    outputDirectory: z.string().optional(),
  }),
  pong: z.looseObject({
    message: z.string(),
    timestamp: z.string(),
    clientId: z.string().optional(),
  }),
  'history.batch': z.looseObject({
    events: z.array(
      z.looseObject({ id: z.string(), type: z.string(), timestamp: z.string(), data: z.unknown() }),
    ),
    hasMore: z.boolean(),
  }),
  'incomplete.codon': z.looseObject({
    codonId: z.string(),
    codonName: z.string(),
    message: z.string(),
  }),
} as const;
