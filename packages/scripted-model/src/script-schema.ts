import { z } from 'zod';

/**
 * Token counts reported for one turn. They reach the agent verbatim (`message_start` and
 * `message_delta` usage), so budget and cost code can be tested with exact numbers.
 */
export const usageSchema = z
  .strictObject({
    inputTokens: z.int().nonnegative().default(1),
    outputTokens: z.int().nonnegative().default(1),
    cacheCreationInputTokens: z.int().nonnegative().default(0),
    cacheReadInputTokens: z.int().nonnegative().default(0),
  })
  .describe(
    'Token counts reported for the turn; absent fields default to 1 input, 1 output, 0 cache.',
  );
/** Parsed {@link usageSchema}. */
export type Usage = z.infer<typeof usageSchema>;

const pathSchema = z
  .string()
  .min(1)
  .describe(
    "A file path; a relative one is resolved against the agent's working directory when the request reveals it.",
  );

/** The content blocks a turn may contain, in the order they are streamed. */
export const contentBlockSchema = z.union([
  z.strictObject({ text: z.string().describe('Assistant text.') }),
  z.strictObject({
    thinking: z.string().describe('Extended thinking text.'),
    signature: z.string().optional().describe('Thinking signature; a fixed dummy when absent.'),
  }),
  z.strictObject({
    write: z
      .strictObject({ path: pathSchema, content: z.string() })
      .describe('A Write tool call: file_path + content.'),
  }),
  z.strictObject({
    edit: z
      .strictObject({
        path: pathSchema,
        oldString: z.string(),
        newString: z.string(),
        replaceAll: z.boolean().optional(),
      })
      .describe('An Edit tool call. Claude Code refuses it unless the file was Read first.'),
  }),
  z.strictObject({
    bash: z
      .union([
        z.string().min(1),
        z.strictObject({
          command: z.string().min(1),
          description: z.string().optional(),
          timeoutMs: z.int().positive().optional(),
        }),
      ])
      .describe('A Bash tool call: a command string or {command, description?, timeoutMs?}.'),
  }),
  z.strictObject({
    read: z
      .union([
        pathSchema,
        z.strictObject({
          path: pathSchema,
          offset: z.int().nonnegative().optional(),
          limit: z.int().positive().optional(),
        }),
      ])
      .describe('A Read tool call: a path or {path, offset?, limit?}.'),
  }),
  z.strictObject({
    tool: z
      .strictObject({
        name: z.string().min(1),
        input: z.record(z.string(), z.unknown()),
        id: z.string().min(1).optional(),
      })
      .describe('Any tool call, by name, with its raw input.'),
  }),
  z.strictObject({
    object: z
      .unknown()
      .describe(
        'A structured answer: a tool_use of the tool the request forces (tool_choice), else JSON text.',
      ),
  }),
]);
/** Parsed {@link contentBlockSchema}. */
export type ContentBlock = z.infer<typeof contentBlockSchema>;

const statusFailure = <K extends string>(kind: K, description: string) =>
  z.strictObject({ kind: z.literal(kind) }).describe(description);

/** A failure served instead of a turn's content. */
export const failureSchema = z.union([
  z
    .strictObject({
      kind: z.literal('rate-limit'),
      retryAfterSeconds: z.number().nonnegative().default(0),
    })
    .describe(
      'HTTP 429 with a retry-after header (rate_limit_error; OpenAI: rate_limit_exceeded).',
    ),
  statusFailure('server-error', 'HTTP 500 (api_error; OpenAI: server_error).'),
  statusFailure('overloaded', 'HTTP 529 overloaded_error (OpenAI: HTTP 503 server_error).'),
  z
    .strictObject({
      kind: z.literal('prompt-too-long'),
      tokens: z.int().positive().default(250_000),
      maximum: z.int().positive().default(200_000),
    })
    .describe(
      'HTTP 400 invalid_request_error "prompt is too long: N tokens > M maximum" (OpenAI: code context_length_exceeded).',
    ),
  z
    .strictObject({
      kind: z.literal('http-error'),
      status: z.int().min(400).max(599),
      type: z.string().min(1).default('api_error'),
      message: z.string().default('Scripted error'),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .describe("Any HTTP error with the API's error body (`type` is the error type)."),
  z
    .strictObject({
      kind: z.literal('stall'),
      phase: z.enum(['before-headers', 'after-headers', 'mid-stream']).default('before-headers'),
    })
    .describe('Never finish the response; it stays open until the client gives up or close().'),
  z
    .strictObject({
      kind: z.literal('drop'),
      phase: z.enum(['before-headers', 'mid-stream']).default('mid-stream'),
    })
    .describe('Destroy the socket, before any byte or after part of the stream.'),
]);
/** Parsed {@link failureSchema}. */
export type Failure = z.infer<typeof failureSchema>;

/** Conditions on the request; all that are given must hold. */
export const whenSchema = z
  .strictObject({
    lastToolResultContains: z.string().optional(),
    anyToolResultContains: z
      .string()
      .optional()
      .describe(
        'Substring of any tool result so far (the conversation grows: a resumed session carries its history).',
      ),
    lastUserMessageContains: z.string().optional(),
    systemContains: z.string().optional(),
    model: z.string().optional().describe('Substring of the requested model id.'),
  })
  .describe('A rule on the request; every field given must hold.');
/** Parsed {@link whenSchema}. */
export type When = z.infer<typeof whenSchema>;

/** One assistant reply (or a failure, or both: the failure first, `times` times). */
export const turnSchema = z
  .strictObject({
    content: z.array(contentBlockSchema).default([]),
    usage: usageSchema.prefault({}),
    stopReason: z
      .enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence'])
      .optional()
      .describe('Defaults to tool_use when the content calls a tool, else end_turn.'),
    when: whenSchema.optional(),
    fail: failureSchema.optional(),
    times: z
      .union([z.int().positive(), z.literal('always')])
      .optional()
      .describe('How many requests get the failure before the content is served; default always.'),
    delayMs: z
      .int()
      .nonnegative()
      .optional()
      .describe("Wait this long before answering (the model's latency), content or failure alike."),
  })
  .refine((turn) => turn.fail !== undefined || turn.content.length > 0, {
    error: 'a turn needs content, a failure, or both',
  })
  .refine((turn) => typeof turn.times !== 'number' || turn.content.length > 0, {
    error: 'a failure with a finite `times` needs content to serve afterwards',
  })
  .refine((turn) => turn.times === undefined || turn.fail !== undefined, {
    error: '`times` needs `fail`',
  });
/** Parsed {@link turnSchema}. */
export type Turn = z.infer<typeof turnSchema>;

/** A position in a conversation: one turn, or alternatives chosen by their `when`. */
export const slotSchema = z.union([
  turnSchema,
  z
    .strictObject({ choose: z.array(turnSchema).min(1) })
    .describe('Alternatives: the first whose `when` holds (or that has none) is served.'),
]);
/** Parsed {@link slotSchema}. */
export type Slot = z.infer<typeof slotSchema>;

/** How a conversation is recognised; no `match` means "by order". */
export const matchSchema = z
  .strictObject({
    marker: z
      .string()
      .min(1)
      .describe('Substring looked for in the system text and the text of user messages.'),
  })
  .describe('How the conversation is recognised.');

/** An ordered list of turns; turn N answers requests with N assistant messages after the anchor. */
export const conversationSchema = z.strictObject({
  name: z.string().min(1).optional().describe('Shown in the request log; defaults to #index.'),
  match: matchSchema.optional(),
  turns: z.array(slotSchema).min(1),
});
/** Parsed {@link conversationSchema}. */
export type Conversation = z.infer<typeof conversationSchema>;

/** A whole script: what the server answers, in order. */
export const scriptSchema = z
  .strictObject({
    $schema: z.string().optional(),
    conversations: z.array(conversationSchema).min(1),
    sideReply: z
      .string()
      .default('OK')
      .describe("Text answered to the agent's own side requests (titles, summaries)."),
  })
  .describe('A @hankweave/scripted-model script.');
/** Parsed {@link scriptSchema} (defaults applied). */
export type Script = z.infer<typeof scriptSchema>;
/** What a script author writes: {@link scriptSchema}'s input type. */
export type ScriptInput = z.input<typeof scriptSchema>;
