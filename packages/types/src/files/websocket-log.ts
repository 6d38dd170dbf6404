import { z } from 'zod';
import { timestampSchema } from '../common.js';

/** One line of `.hankweave/logs/websocket.log` (seed 001). */
export const websocketLogEntrySchema = z.looseObject({
  loggedAt: timestampSchema,
  direction: z.enum(['in', 'out']),
  message: z.unknown(),
  metadata: z.looseObject({ size: z.number().int().nonnegative() }),
});
export type WebSocketLogEntry = z.infer<typeof websocketLogEntrySchema>;
