import type { SentinelConfig, TokenUsage } from '@hankweave/types';
import {
  generateText,
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
} from 'ai';
import { Ajv, type ValidateFunction } from 'ajv';
import { SentinelError } from '../errors.js';
import { type CallResult, type StructuredSpec, tokenUsageOf } from './llm-usage.js';

// Loaded only when a sentinel loads (see llm-stack.ts): the AI SDK, its providers and Ajv.

const ajv = new Ajv({ allErrors: true, strict: false });

function validatorFor(schema: Record<string, unknown>, ref: string): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (cause) {
    throw new SentinelError(
      'SENTINEL_SCHEMA_INVALID',
      `Sentinel ${ref}: the structured output schema is not a valid JSON Schema: ${(cause as Error).message}`,
      { cause, details: { ref } },
    );
  }
}

// The AI SDK asks the model for the schema, then hands the answer to this validator; a mismatch
// becomes NoObjectGeneratedError, which the runner counts as a failed call.
function validatedSchema(schema: Record<string, unknown>, ref: string) {
  const validate = validatorFor(schema, ref);
  return jsonSchema(schema as JSONSchema7, {
    validate: (value) =>
      validate(value)
        ? { success: true, value }
        : {
            success: false,
            error: new SentinelError(
              'SENTINEL_OUTPUT_INVALID',
              `Output does not match the schema: ${ajv.errorsText(validate.errors)}`,
            ),
          },
  });
}

/**
 * Compiles a config's structured output into an AI SDK `Output` factory, or `undefined` for text.
 * For `array`, the schema may be the array schema (its `items` is the element) or the element.
 */
export function prepareStructured(
  config: SentinelConfig,
  schema: Record<string, unknown> | undefined,
  ref: string,
): StructuredSpec | undefined {
  const structured = config.structuredOutput;
  if (!structured) return undefined;
  const naming = {
    ...(structured.schemaName ? { name: structured.schemaName } : {}),
    ...(structured.schemaDescription ? { description: structured.schemaDescription } : {}),
  };
  if (structured.output === 'enum') {
    const options = structured.enumValues ?? [];
    return () => Output.choice({ options, ...naming });
  }
  const given = schema ?? {};
  if (structured.output === 'object') {
    const element = validatedSchema(given, ref);
    return () => Output.object({ schema: element, ...naming });
  }
  const items =
    given.type === 'array' && typeof given.items === 'object' && given.items !== null
      ? (given.items as Record<string, unknown>)
      : given;
  const element = validatedSchema(items, ref);
  return () => Output.array({ element, ...naming });
}

/** Calls the model once (the AI SDK retries per `maxRetries`). Throws on failure. */
export async function callModel(input: {
  model: LanguageModel;
  system: string | undefined;
  messages: ModelMessage[];
  config: SentinelConfig;
  structured: StructuredSpec | undefined;
  /** The temperature when the config sets none; undefined leaves it to the model. */
  defaultTemperature: number | undefined;
}): Promise<CallResult> {
  const params = input.config.llmParams ?? {};
  const temperature = params.temperature ?? input.defaultTemperature;
  const result = await generateText({
    model: input.model,
    ...(input.system ? { instructions: input.system } : {}),
    messages: input.messages,
    ...(temperature !== undefined ? { temperature } : {}),
    maxOutputTokens: params.maxOutputTokens ?? 8192,
    maxRetries: params.maxRetries ?? 2,
    ...(params.topP !== undefined ? { topP: params.topP } : {}),
    ...(params.topK !== undefined ? { topK: params.topK } : {}),
    ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    ...(params.seed !== undefined ? { seed: params.seed } : {}),
    ...(input.structured ? { output: input.structured() } : {}),
  });
  const usage = tokenUsageOf(result.usage);
  if (input.structured) return { outputType: 'structured', content: result.output, usage };
  return { outputType: 'text', content: result.text, usage };
}

/** The usage a failed call still consumed (an invalid object was paid for), if known. */
export function usageOfFailure(error: unknown): TokenUsage | undefined {
  if (NoObjectGeneratedError.isInstance(error) && error.usage) return tokenUsageOf(error.usage);
  return undefined;
}
