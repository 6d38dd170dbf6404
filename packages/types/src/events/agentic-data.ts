import { z } from 'zod';
import { fileNodeSchema } from './file-node.js';

/** Payloads of the agentic-backbone events: what the agent does (reference §3.3). */
export const agenticEventData = {
  'assistant.action': z.looseObject({
    codonId: z.string(),
    action: z.enum(['thinking', 'message', 'tool_use']),
    content: z.string(),
    toolName: z.string().optional(),
    toolInput: z.unknown().optional(),
    toolUseId: z.string().optional(),
  }),
  'tool.result': z.looseObject({
    codonId: z.string(),
    toolUseId: z.string(),
    toolName: z.string(),
    result: z.string(),
    truncated: z.boolean(),
    originalLength: z.number().int(),
    executionTimeMs: z.number(),
    isError: z.boolean(),
  }),
  'file.updated': z.looseObject({
    codonId: z.string().optional(),
    path: z.string(),
    filename: z.string(),
    // The original's later versions send only the fingerprint (`sha256`, `bytes`) for a file;
    // hankweave always writes `content` ('' when fingerprinted), and reads a missing one as ''.
    content: z.string().default(''),
    action: z.enum(['created', 'modified', 'deleted']),
    sha256: z.string().optional(),
    bytes: z.number().int().optional(),
    source: z
      .looseObject({
        kind: z.enum(['codon-start', 'tool_use', 'scan']),
        toolUseId: z.string().optional(),
      })
      .optional(),
  }),
  'filetree.updated': z.looseObject({
    codonId: z.string().optional(),
    tree: z.array(fileNodeSchema),
  }),
  'rig.setup.completed': z.looseObject({
    codonId: z.string(),
    rigType: z.enum(['command', 'commands']),
    commandCount: z.number().int(),
    durationMs: z.number(),
    createdCheckpoint: z.string().nullable().optional(),
  }),
  'rig.setup.failed': z.looseObject({
    codonId: z.string(),
    failureType: z.enum(['command_failed', 'timeout', 'other']),
    exitCode: z.number().int().optional(),
    commandIndex: z.number().int().optional(),
    ignored: z.boolean(),
    message: z.string().optional(),
  }),
  'rig.output': z.looseObject({
    codonId: z.string(),
    stream: z.enum(['stdout', 'stderr']),
    line: z.string(),
    commandIndex: z.number().int(),
  }),
} as const;
