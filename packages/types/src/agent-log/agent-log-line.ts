import { z } from 'zod';

// Claude Code's stream-json lines, as written to `runs/{runId}/{codonId}-claude.log`.
// Reading must never break on a newer agent: every schema is loose, nearly every field optional,
// and a line of an unknown type is kept as a generic line (reference/compatibility.md).

export const agentUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().nullable().optional(),
  cache_read_input_tokens: z.number().nullable().optional(),
});
export type AgentUsage = z.infer<typeof agentUsageSchema>;

export const agentContentBlockSchema = z.union([
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('thinking'), thinking: z.string() }),
  z.looseObject({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
  }),
  z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.unknown().optional(),
    is_error: z.boolean().optional(),
  }),
  z.looseObject({ type: z.string() }),
]);
export type AgentContentBlock = z.infer<typeof agentContentBlockSchema>;

const messageSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(agentContentBlockSchema)]).optional(),
  usage: agentUsageSchema.nullable().optional(),
  stop_reason: z.string().nullable().optional(),
});

const common = {
  timestamp: z.string().optional(),
  session_id: z.string().optional(),
  uuid: z.string().optional(),
  parent_tool_use_id: z.string().nullable().optional(),
};

export const agentSystemLineSchema = z.looseObject({
  ...common,
  type: z.literal('system'),
  subtype: z.string().optional(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  tools: z.array(z.unknown()).optional(),
  claude_code_version: z.string().optional(),
});
export const agentAssistantLineSchema = z.looseObject({
  ...common,
  type: z.literal('assistant'),
  message: messageSchema.optional(),
  usage: agentUsageSchema.optional(),
});
export const agentUserLineSchema = z.looseObject({
  ...common,
  type: z.literal('user'),
  message: messageSchema.optional(),
  tool_use_result: z.unknown().optional(),
});
export const agentResultLineSchema = z.looseObject({
  ...common,
  type: z.literal('result'),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  error: z.string().optional(),
  total_cost_usd: z.number().optional(),
  cost: z.number().optional(),
  total_cost: z.number().optional(),
  duration_ms: z.number().optional(),
  num_turns: z.number().optional(),
  usage: agentUsageSchema.optional(),
  modelUsage: z.record(z.string(), z.looseObject({})).optional(),
});
/** A line of a type this version does not know: kept, never rejected. */
export const agentOtherLineSchema = z.looseObject({ ...common, type: z.string() });

/** One line of an agent log. Tries the known types first, then keeps anything with a `type`. */
export const agentLogLineSchema = z.union([
  agentSystemLineSchema,
  agentAssistantLineSchema,
  agentUserLineSchema,
  agentResultLineSchema,
  agentOtherLineSchema,
]);
export type AgentLogLine = z.infer<typeof agentLogLineSchema>;
export type AgentSystemLine = z.infer<typeof agentSystemLineSchema>;
export type AgentAssistantLine = z.infer<typeof agentAssistantLineSchema>;
export type AgentUserLine = z.infer<typeof agentUserLineSchema>;
export type AgentResultLine = z.infer<typeof agentResultLineSchema>;
