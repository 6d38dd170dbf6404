import { z } from 'zod';
import { timestampSchema } from '../common.js';

/**
 * Where a hank came from (hankweave's addition to execution-meta.json, issue 35): a directory on
 * this machine, a git repository at a resolved commit, or a verified `.hank` bundle. A resume of
 * a git hank runs the recorded commit, not the branch's newest.
 */
export const hankSourceSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('path'), path: z.string() }),
  z.looseObject({
    kind: z.literal('git'),
    /** The URL as given (credentials never recorded). */
    url: z.string(),
    /** The branch, tag or commit asked for; absent: the remote's default branch. */
    ref: z.string().optional(),
    /** The commit that ran (40 hex digits). */
    commit: z.string(),
    /** The hank's directory inside the repository; absent: its root. */
    subdir: z.string().optional(),
  }),
  z.looseObject({
    kind: z.literal('bundle'),
    /** The bundle file as given. */
    path: z.string(),
    /** sha256 of the bundle's canonical content, as its hank.lock states. */
    bundleHash: z.string(),
  }),
]);
export type HankSource = z.infer<typeof hankSourceSchema>;

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
  /**
   * hankweave's addition: the containment the last run of this execution had. `sandbox` is
   * `bubblewrap` (every process started for the hank ran in it) or `none` (only the deny rules and
   * the data guard; `reason` says why). Absent in the original's files; a malformed value reads as
   * absent.
   */
  containment: z
    .looseObject({
      sandbox: z.string(),
      version: z.string().optional(),
      reason: z.string().optional(),
      at: timestampSchema.optional(),
    })
    .optional()
    .catch(undefined),
  /**
   * hankweave's addition: what hankweave created here, so that prune and every cleanup remove only
   * that. `directory`: the execution directory itself did not exist (or was empty) before;
   * `entries`: the top-level names hankweave made in it (`.hankweave`, `agentRoot`, ...). Absent
   * in the original's files and ours before: then only the layout's own names are removed.
   */
  created: z
    .looseObject({ directory: z.boolean(), entries: z.array(z.string()) })
    .optional()
    .catch(undefined),
  /**
   * hankweave's addition: where the hank came from (`HankSource`). Absent in the original's files
   * and in ours before issue 35 (then `hankPath` is all there is); a malformed value reads as
   * absent.
   */
  hankSource: hankSourceSchema.optional().catch(undefined),
});
export type ExecutionMeta = z.infer<typeof executionMetaSchema>;
