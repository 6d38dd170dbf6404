import { z } from 'zod';

/** A file reference: a portable relative POSIX path, checked on disk by `validateHank`. */
export const fileRefSchema = z.string().min(1);
const fileRefsSchema = z.union([fileRefSchema, z.array(fileRefSchema).min(1)]);

const eventTypeName = z.string().min(1);

/** A condition on a dot path into `event.data`, discriminated on `operator` (reference §1.8). */
export const sentinelConditionSchema = z.discriminatedUnion('operator', [
  z.strictObject({
    path: z.string().min(1),
    operator: z.enum(['equals', 'notEquals']),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  }),
  z.strictObject({
    path: z.string().min(1),
    operator: z.enum(['in', 'notIn']),
    value: z.array(z.union([z.string(), z.number()])).min(1),
  }),
  z.strictObject({ path: z.string().min(1), operator: z.literal('contains'), value: z.string() }),
  z.strictObject({ path: z.string().min(1), operator: z.literal('matches'), value: z.string() }),
  z.strictObject({
    path: z.string().min(1),
    operator: z.enum(['greaterThan', 'lessThan']),
    value: z.number(),
  }),
]);
export type SentinelCondition = z.infer<typeof sentinelConditionSchema>;

export const sentinelTriggerSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('event'),
    on: z.array(eventTypeName).min(1),
    conditions: z.array(sentinelConditionSchema).optional(),
  }),
  z.strictObject({
    type: z.literal('sequence'),
    interestFilter: z.strictObject({ on: z.array(eventTypeName).min(1) }),
    pattern: z
      .array(
        z.strictObject({
          type: eventTypeName,
          conditions: z.array(sentinelConditionSchema).optional(),
        }),
      )
      .min(1),
    options: z.strictObject({ consecutive: z.boolean().default(true) }).optional(),
  }),
]);
export type SentinelTrigger = z.infer<typeof sentinelTriggerSchema>;

export const sentinelExecutionSchema = z.discriminatedUnion('strategy', [
  z.strictObject({ strategy: z.literal('immediate') }),
  z.strictObject({
    strategy: z.literal('debounce'),
    milliseconds: z.number().int().min(1).max(300_000),
  }),
  z.strictObject({ strategy: z.literal('count'), threshold: z.number().int().min(1).max(1000) }),
  z.strictObject({
    strategy: z.literal('timeWindow'),
    milliseconds: z.number().int().min(1).max(3_600_000),
  }),
]);
export type SentinelExecution = z.infer<typeof sentinelExecutionSchema>;

export const reportToWebsocketSchema = z.strictObject({
  lifecycle: z.boolean().optional(),
  errors: z.boolean().optional(),
  outputs: z.boolean().optional(),
  triggers: z.boolean().optional(),
});

/**
 * Structured output declared as data: a JSON Schema object (inline `schema`, or a `.json` file in
 * `schemaFile`), never code. The original runtime's `schemaStr` (a zod expression evaluated at
 * load) is refused on purpose: a config file must not be able to run code.
 */
export const structuredOutputSchema = z.strictObject({
  output: z.enum(['object', 'array', 'enum']),
  schema: z.record(z.string(), z.unknown()).optional(),
  schemaFile: fileRefSchema.optional(),
  enumValues: z.array(z.string().min(1)).min(1).optional(),
  schemaName: z.string().optional(),
  schemaDescription: z.string().optional(),
});

/** A sentinel definition, in its own JSON file or inline in a codon (reference §1.8). */
export const sentinelConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z0-9-]+$/, {
      error: 'Sentinel ids use lowercase letters, digits and dashes only (e.g. "cost-watch")',
    }),
    name: z.string().min(1),
    description: z.string().optional(),
    model: z.string().min(1),
    trigger: sentinelTriggerSchema,
    execution: sentinelExecutionSchema,
    systemPromptFile: fileRefsSchema.optional(),
    systemPromptText: z.string().optional(),
    userPromptFile: fileRefSchema.optional(),
    userPromptText: z.string().optional(),
    conversational: z
      .strictObject({
        trimmingStrategy: z.discriminatedUnion('type', [
          z.strictObject({
            type: z.literal('maxTurns'),
            maxTurns: z.number().int().min(1).max(100),
          }),
          z.strictObject({
            type: z.literal('maxTokens'),
            maxTokens: z.number().int().min(1).max(100_000),
          }),
        ]),
        continueOnError: z.boolean().optional(),
      })
      .optional(),
    errorHandling: z
      .strictObject({
        maxConsecutiveFailures: z.number().int().min(1).default(3),
        unloadOnFatalError: z.boolean().default(true),
      })
      .optional(),
    llmParams: z
      .strictObject({
        temperature: z.number().min(0).max(2).optional(),
        maxOutputTokens: z.number().int().positive().optional(),
        maxRetries: z.number().int().min(0).max(10).optional(),
        topP: z.number().min(0).max(1).optional(),
        topK: z.number().int().positive().optional(),
        stopSequences: z.array(z.string()).optional(),
        seed: z.number().int().optional(),
      })
      .optional(),
    structuredOutput: structuredOutputSchema.optional(),
    joinString: z.string().optional(),
    reportToWebsocket: reportToWebsocketSchema.optional(),
    output: z
      .strictObject({
        format: z.enum(['text', 'jsonl']),
        file: z.string().optional(),
        lastValueFile: z.string().optional(),
      })
      .optional(),
  })
  .superRefine((config, ctx) => {
    const issue = (path: string[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message });
    if ((config.userPromptFile === undefined) === (config.userPromptText === undefined)) {
      issue(['userPromptText'], 'Give exactly one of userPromptFile or userPromptText');
    }
    if (config.systemPromptFile !== undefined && config.systemPromptText !== undefined) {
      issue(['systemPromptText'], 'Give systemPromptFile or systemPromptText, not both');
    }
    if (
      config.conversational &&
      config.systemPromptFile === undefined &&
      config.systemPromptText === undefined
    ) {
      issue(
        ['conversational'],
        'A conversational sentinel needs systemPromptFile or systemPromptText',
      );
    }
    const structured = config.structuredOutput;
    if (structured) {
      if (structured.output === 'enum' && !structured.enumValues) {
        issue(['structuredOutput', 'enumValues'], 'output "enum" needs enumValues');
      }
      if (
        structured.output !== 'enum' &&
        (structured.schema === undefined) === (structured.schemaFile === undefined)
      ) {
        issue(
          ['structuredOutput', 'schema'],
          `output "${structured.output}" needs exactly one of schema (a JSON Schema object) or schemaFile`,
        );
      }
      if (config.output?.format !== undefined) {
        issue(['output', 'format'], 'structuredOutput always writes NDJSON; remove output.format');
      }
      if (config.joinString !== undefined) {
        issue(['joinString'], 'joinString applies to text output only');
      }
    }
  });
export type SentinelConfig = z.infer<typeof sentinelConfigSchema>;
export type SentinelConfigInput = z.input<typeof sentinelConfigSchema>;

/** A codon's sentinel entry: a file reference or an inline config, plus per-codon settings. */
export const codonSentinelEntrySchema = z.strictObject({
  sentinelConfig: z.union([fileRefSchema, sentinelConfigSchema]),
  settings: z
    .strictObject({
      failCodonIfNotLoaded: z.boolean().default(false),
      outputPaths: z
        .strictObject({ logFile: z.string().optional(), lastValueFile: z.string().optional() })
        .optional(),
      reportToWebsocket: reportToWebsocketSchema.optional(),
    })
    .optional(),
});
export type CodonSentinelEntry = z.infer<typeof codonSentinelEntrySchema>;
