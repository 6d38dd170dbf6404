import { z } from 'zod';
import { loopContextSchema, timestampSchema } from '../common.js';

/** One archived path (reference §5.6 `archiveOnSuccess`). */
export const archiveManifestEntrySchema = z.looseObject({
  sourcePath: z.string(),
  archivePath: z.string(),
  codonId: z.string(),
  loopContext: loopContextSchema.optional(),
  checkpointSha: z.string().nullable(),
  timestamp: timestampSchema,
});

/** `.hankweave/archive-manifest.json`: what was moved to `rigArchive/`, so rollback can undo it. */
export const archiveManifestSchema = z.looseObject({
  version: z.string(),
  entries: z.array(archiveManifestEntrySchema),
});
export type ArchiveManifest = z.infer<typeof archiveManifestSchema>;
export type ArchiveManifestEntry = z.infer<typeof archiveManifestEntrySchema>;
