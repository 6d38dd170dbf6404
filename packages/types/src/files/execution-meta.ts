import { z } from 'zod';
import { timestampSchema } from '../common.js';

/** `.hankweave/execution-meta.json` (seed 001): the identity of an execution directory. */
export const executionMetaSchema = z.looseObject({
  version: z.string(),
  readOnlySourceDataPath: z.string(),
  readOnlySourceResolvedDataPath: z.string(),
  dataHash: z.string(),
  hankHash: z.string(),
  hankPath: z.string(),
  linkType: z.enum(['symlink', 'copy']),
  createdAt: timestampSchema,
  lastUsed: timestampSchema,
  /**
   * hankweave's addition: how `dataHash` was computed. Absent (the original runtime's files):
   * version 1, over names, sizes and mtimes; 2: names, types, sizes and content, never mtimes.
   */
  dataHashVersion: z.number().int().positive().optional(),
});
export type ExecutionMeta = z.infer<typeof executionMetaSchema>;
