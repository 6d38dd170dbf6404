import { z } from 'zod';
import { hankConfigSchema } from './hank/hank-config.js';
import { sentinelConfigSchema } from './hank/sentinel-config.js';

/** The JSON Schema of hank.json (input side: fields with defaults are optional). */
export function buildHankJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(hankConfigSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'hank.json',
    description: 'A hankweave hank: an ordered program of codons and loops.',
  };
}

/** The JSON Schema of a sentinel config file. */
export function buildSentinelJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(sentinelConfigSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'hankweave sentinel',
    description: "A sentinel: an LLM observer of a codon's event stream.",
  };
}
