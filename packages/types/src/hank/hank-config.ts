import { z } from 'zod';
import { conditionSchema } from './condition.js';
import { codonSentinelEntrySchema, fileRefSchema } from './sentinel-config.js';

const fileRefsSchema = z.union([fileRefSchema, z.array(fileRefSchema).min(1)]);
const globList = z.array(z.string().min(1));

const workingDirectorySchema = z.enum(['project', 'lastCopied']);

/** The command of a rig item or a beforeCopy item: a shell line and where it runs. */
const rigCommandSchema = z.strictObject({
  run: z.string().min(1),
  workingDirectory: workingDirectorySchema.optional(),
});

/**
 * A shell command item, `{type: "command", command: {run, workingDirectory?}, allowFailure?}`
 * (reference §1.4), used by `rigSetup` and `outputFiles[].beforeCopy`.
 *
 * A `workingDirectory` written beside `command` instead of inside it is accepted (validateHank
 * warns, code `misplaced_working_directory`) and honoured when `command.workingDirectory` is
 * absent, since that is what the author meant; the original runtime ignores it. The parsed
 * item never carries it beside `command`.
 */
export const rigCommandOperationSchema = z
  .strictObject({
    type: z.literal('command'),
    command: rigCommandSchema,
    allowFailure: z.boolean().default(false),
    /** Deprecated place: belongs in `command.workingDirectory`. */
    workingDirectory: workingDirectorySchema
      .optional()
      .meta({ deprecated: true, description: 'Deprecated: write it in command.workingDirectory' }),
  })
  .transform(({ workingDirectory, ...op }) =>
    workingDirectory === undefined || op.command.workingDirectory !== undefined
      ? op
      : { ...op, command: { ...op.command, workingDirectory } },
  );
/** A parsed shell command item: `command.workingDirectory` is the only place of the directory. */
export type RigCommandOperation = z.infer<typeof rigCommandOperationSchema>;

/** One rig setup operation: a shell command or a copy into agentRoot (reference §1.4). */
export const rigOperationSchema = z.discriminatedUnion('type', [
  rigCommandOperationSchema,
  z.strictObject({
    type: z.literal('copy'),
    copy: z.strictObject({ from: fileRefSchema, to: z.string().min(1) }),
    allowFailure: z.boolean().default(false),
    archiveOnSuccess: z.boolean().optional(),
  }),
]);
export type RigOperation = z.infer<typeof rigOperationSchema>;

/**
 * The shape this project shipped first for a beforeCopy item, `{run, workingDirectory?}`:
 * still accepted as a deprecated alias (validateHank warns, code `deprecated_before_copy`).
 */
const legacyBeforeCopySchema = rigCommandSchema
  .meta({
    deprecated: true,
    description: 'Deprecated: write {"type": "command", "command": {"run": ...}}',
  })
  .transform((command): RigCommandOperation => ({ type: 'command', command, allowFailure: false }));

/**
 * One `outputFiles[].beforeCopy[]` item: a shell command in the rig-command shape
 * `{type: "command", command: {run, workingDirectory?}, allowFailure?}` (reference §1.6), or the
 * deprecated `{run, workingDirectory?}`. Both parse to {@link RigCommandOperation}.
 */
export const beforeCopyCommandSchema = z.union([rigCommandOperationSchema, legacyBeforeCopySchema]);

export const codonBudgetSchema = z.strictObject({
  maxDollars: z.number().positive().optional(),
  maxTimeSeconds: z.number().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  maxContextTokens: z.number().int().positive().optional(),
  onExceeded: z.enum(['complete', 'fail']).optional(),
});

/** A budget shared by the codons of a hank or a loop (reference §1.7). */
export const containerBudgetSchema = z.strictObject({
  maxDollars: z.number().positive().optional(),
  maxTimeSeconds: z.number().positive().optional(),
  allocation: z.enum(['shared', 'proportional', 'proportional-strict']).default('shared'),
  shares: z.record(z.string(), z.number().gt(0).max(1)).optional(),
  onExceeded: z.enum(['complete', 'fail']).optional(),
});

export type ContainerBudget = z.infer<typeof containerBudgetSchema>;

export const retryConfigSchema = z.strictObject({
  maxAttempts: z.number().int().min(1).max(10).default(3),
  delayMs: z.number().int().min(0).max(60_000).default(1000),
  maxDelayMs: z.number().int().min(0).max(600_000).default(60_000),
});

/**
 * A progress file (seed 004): `true` for the default path
 * (`.claude/loop-progress/progress-{session}.txt` in agentRoot), a path relative to agentRoot, or
 * both with the optional `Verify:` command written into its header.
 */
export const progressFileSchema = z.union([
  z.boolean(),
  z.string().min(1),
  z.strictObject({ path: z.string().min(1).optional(), verify: z.string().min(1).optional() }),
]);
export type ProgressFileSetting = z.infer<typeof progressFileSchema>;

/** One codon: an agent session with its prompt, rig, tracked files and policies (§1.3). */
export const codonConfigSchema = z.strictObject({
  type: z.literal('codon').optional(),
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
  model: z.string().min(1),
  continuationMode: z.enum(['fresh', 'continue-previous']),
  promptFile: fileRefsSchema.optional(),
  promptText: z.string().optional(),
  appendSystemPromptFile: fileRefsSchema.optional(),
  appendSystemPromptText: z.string().optional(),
  rigSetup: z.array(rigOperationSchema).optional(),
  checkpointedFiles: globList.optional(),
  /** The reference documents' name for `checkpointedFiles`; both are accepted and merged. */
  trackedFiles: globList.optional(),
  env: z.record(z.string(), z.string()).optional(),
  outputFiles: z
    .array(
      z.strictObject({
        copy: z.array(z.string().min(1)).min(1),
        beforeCopy: z.array(beforeCopyCommandSchema).optional(),
      }),
    )
    .optional(),
  sentinels: z.array(codonSentinelEntrySchema).optional(),
  archiveOnSuccess: globList.optional(),
  onFailure: z.enum(['abort', 'retry', 'ignore']).default('abort'),
  retryConfig: retryConfigSchema.optional(),
  exhaustWithPrompt: z.string().min(1).optional(),
  maxExtensions: z.number().int().positive().default(100),
  autoCompact: z.boolean().default(false),
  shimIdleTimeout: z.number().int().min(1).max(1800).optional(),
  budget: codonBudgetSchema.optional(),
  progressFile: progressFileSchema.optional(),
  /** Run only when this holds, evaluated just before the codon would run; else skipped. Ours. */
  when: conditionSchema.optional(),
});
export type CodonConfig = z.infer<typeof codonConfigSchema>;
export type CodonConfigInput = z.input<typeof codonConfigSchema>;

/** How a loop decides to stop (reference §1.5, plus seed 004's plateau consensus). */
export const terminateOnSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('iterationLimit'), limit: z.number().int().min(1) }),
  z.strictObject({ type: z.literal('contextExceeded') }),
  z.strictObject({
    type: z.literal('plateau'),
    /** How many consecutive iterations must report a plateau before the loop stops. */
    consensus: z.number().int().min(1).default(2),
    /** Never stop on a plateau before this many iterations have run. */
    minIterations: z.number().int().min(1).default(2),
    /** A hard cap, whatever the plateau votes say. */
    maxIterations: z.number().int().min(1),
  }),
]);
export type TerminateOn = z.infer<typeof terminateOnSchema>;

/** A loop of codons, expanded lazily into iterations `id#0`, `id#1` ... (reference §1.5). */
export const loopConfigSchema = z.strictObject({
  type: z.literal('loop'),
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
  terminateOn: terminateOnSchema,
  codons: z.array(codonConfigSchema).min(1),
  budget: containerBudgetSchema.optional(),
  archiveOnSuccess: globList.optional(),
  progressFile: progressFileSchema.optional(),
  /**
   * Run the loop only when this holds, evaluated before its first codon would run; else every
   * codon of its first iteration is skipped. Ours.
   */
  when: conditionSchema.optional(),
});
export type LoopConfig = z.infer<typeof loopConfigSchema>;

/** An item of a parallel block's branch: a codon or a loop (blocks do not nest). */
export const branchItemSchema = z.union([loopConfigSchema, codonConfigSchema]);
export type BranchItem = z.infer<typeof branchItemSchema>;

/** One branch of a parallel block: its own sequence of codons and loops, in its own worktree. */
export const parallelBranchSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  items: z.array(branchItemSchema).min(1),
});
export type ParallelBranch = z.infer<typeof parallelBranchSchema>;

/**
 * What a parallel block does when merging its branches back conflicts: `fail` (the run stops;
 * a resume merges again), `ordered` (branches win in block order), or a resolver codon that
 * starts after the conflicted merge (`continuationMode: fresh`, no `when`).
 */
export const mergeConfigSchema = z.strictObject({
  onConflict: z
    .union([z.enum(['fail', 'ordered']), z.strictObject({ resolver: codonConfigSchema })])
    .default('fail'),
});
export type MergeConfig = z.infer<typeof mergeConfigSchema>;

/**
 * A parallel block (issue 36): branches of codons and loops that run concurrently, each in its
 * own worktree, merged back when every branch has finished. Ours.
 */
export const parallelConfigSchema = z.strictObject({
  type: z.literal('parallel'),
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
  branches: z.array(parallelBranchSchema).min(2),
  /** How many branches run at once; all of them when absent. Timing only, never what runs. */
  maxConcurrency: z.number().int().positive().optional(),
  merge: mergeConfigSchema.default(() => ({ onConflict: 'fail' as const })),
  /** Run the block only when this holds, evaluated before its first codon would run. */
  when: conditionSchema.optional(),
  /** A budget shared by every codon of every branch (and the resolver). */
  budget: containerBudgetSchema.optional(),
});
export type ParallelConfig = z.infer<typeof parallelConfigSchema>;

export const hankItemSchema = z.union([loopConfigSchema, parallelConfigSchema, codonConfigSchema]);
export type HankItem = z.infer<typeof hankItemSchema>;

export const sentinelSettingsSchema = z.strictObject({
  enablePersistence: z.boolean().optional(),
  healthCheckGracePeriodMs: z.number().int().nonnegative().optional(),
  waitForAllHealthChecks: z.boolean().optional(),
});

/** `meta`: the hank's name and version (strict when present). */
export const hankMetaSchema = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string().optional(),
  author: z.string().optional(),
});
export type HankMeta = z.infer<typeof hankMetaSchema>;

/** The `meta` of a hank that has none and no file to be named after. */
export const DEFAULT_HANK_META: Readonly<HankMeta> = { name: 'hank', version: '0.0.0' };

/** `hank.json`: the root object. Strict: unknown keys are errors with "did you mean" hints. */
export const hankConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  /**
   * Optional, as in the original runtime. Parsed alone, a missing `meta` becomes
   * {@link DEFAULT_HANK_META}; `validateHank` names it after the file instead (see
   * {@link hankNameFromPath}), so a parsed hank always carries a name and a version.
   */
  meta: hankMetaSchema.default(() => ({ ...DEFAULT_HANK_META })),
  overrides: z
    .strictObject({
      model: z.string().min(1).optional(),
      dataHashTimeLimit: z.number().int().positive().optional(),
      sentinel: sentinelSettingsSchema.optional(),
      shimIdleTimeout: z.number().int().min(1).max(1800).optional(),
      budget: containerBudgetSchema.optional(),
    })
    .optional(),
  requirements: z.strictObject({ env: z.array(z.string().trim().min(1)).default([]) }).optional(),
  globalSystemPromptFile: fileRefsSchema.optional(),
  globalSystemPromptText: z.string().optional(),
  hank: z.array(hankItemSchema).min(1),
});
export type HankConfig = z.infer<typeof hankConfigSchema>;
export type HankConfigInput = z.input<typeof hankConfigSchema>;

/** True when a hank item (or a branch item) is a loop. */
export const isLoopConfig = (item: HankItem): item is LoopConfig => item.type === 'loop';

/** True when a hank item is a parallel block. */
export const isParallelConfig = (item: HankItem): item is ParallelConfig =>
  item.type === 'parallel';

/** A parallel block's resolver codon, when its merge has one. */
export function resolverOf(block: ParallelConfig): CodonConfig | undefined {
  const onConflict = block.merge.onConflict;
  return typeof onConflict === 'object' ? onConflict.resolver : undefined;
}

/**
 * Every codon config of a hank item, in hank order: the codon itself, a loop's codons, or a
 * parallel block's codons branch by branch (loops flattened), then its resolver.
 */
export function itemCodons(item: HankItem): CodonConfig[] {
  if (isLoopConfig(item)) return [...item.codons];
  if (!isParallelConfig(item)) return [item];
  const resolver = resolverOf(item);
  return [
    ...item.branches.flatMap((branch) => branch.items.flatMap(itemCodons)),
    ...(resolver ? [resolver] : []),
  ];
}

/** Every loop of a hank, the loops inside parallel branches included. */
export function hankLoops(config: { hank: readonly HankItem[] }): LoopConfig[] {
  return config.hank.flatMap((item) =>
    isLoopConfig(item)
      ? [item]
      : isParallelConfig(item)
        ? item.branches.flatMap((branch) => branch.items.filter(isLoopConfig))
        : [],
  );
}

/** The tracked-file patterns of a codon: `checkpointedFiles` and its synonym `trackedFiles`. */
export function codonTrackedPatterns(
  codon: Pick<CodonConfig, 'checkpointedFiles' | 'trackedFiles'>,
): string[] {
  return [...new Set([...(codon.checkpointedFiles ?? []), ...(codon.trackedFiles ?? [])])];
}
