import { z } from 'zod';

// Loose on purpose: clients add fields (thinking, metadata, context_management, betas) that the
// server must ignore rather than reject, and new Claude Code versions add more.
const blockSchema = z.looseObject({ type: z.string() });
// Newer Claude Code versions put `system` messages inside `messages` for some models.
const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(blockSchema)]),
});

/** The part of a Messages API request body the server reads. */
export const messagesRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(messageSchema),
  system: z.union([z.string(), z.array(blockSchema)]).optional(),
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  tool_choice: z.looseObject({ type: z.string(), name: z.string().optional() }).optional(),
});
/** A parsed Messages API request body. */
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
type Message = MessagesRequest['messages'][number];
type Block = z.infer<typeof blockSchema>;

/**
 * Appends one message's blocks to a view under construction, merged into the last message when
 * it has the same role: APIs with flat item lists (Responses) or one entry per tool result send
 * one assistant or user message as several entries, and a turn is counted per message.
 */
export function appendBlocks(
  messages: Message[],
  role: 'user' | 'assistant',
  blocks: readonly Block[],
): void {
  const last = messages.at(-1);
  if (last?.role === role && Array.isArray(last.content)) last.content.push(...blocks);
  else messages.push({ role, content: [...blocks] });
}

function blocksOf(content: Message['content']): Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function textOf(block: Block): string {
  return block.type === 'text' && typeof block.text === 'string' ? block.text : '';
}

/** Text of a tool_result block: a string, or its text parts joined by newlines. */
function toolResultText(block: Block): string {
  const { content } = block;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => textOf(blockSchema.parse(part))).join('\n');
}

/** The system text: the `system` field and any `system` messages, text blocks joined by newlines. */
export function systemText(request: MessagesRequest): string {
  const parts = request.system === undefined ? [] : blocksOf(request.system).map(textOf);
  for (const message of request.messages) {
    if (message.role === 'system') parts.push(...blocksOf(message.content).map(textOf));
  }
  return parts.join('\n');
}

/** The text a user wrote in one message: its text blocks, without tool results. */
export function userText(message: Message): string {
  return message.role === 'user' ? blocksOf(message.content).map(textOf).join('\n') : '';
}

/** Everything readable in the last user message: text blocks and tool results. */
export function lastUserMessageText(request: MessagesRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  if (last === undefined) return '';
  return blocksOf(last.content)
    .map((block) => (block.type === 'tool_result' ? toolResultText(block) : textOf(block)))
    .join('\n');
}

/** The tool results of the last user message, joined; '' when it carries none. */
export function lastToolResultText(request: MessagesRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  if (last === undefined) return '';
  return blocksOf(last.content)
    .filter((block) => block.type === 'tool_result')
    .map(toolResultText)
    .join('\n');
}

/** The text of every tool result in the request's history, oldest first. */
export function allToolResultsText(request: MessagesRequest): string {
  return request.messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => blocksOf(message.content))
    .filter((block) => block.type === 'tool_result')
    .map(toolResultText)
    .join('\n');
}

/**
 * The prefix of the tool ids a turn's answer gets: `sm{conversation}t{turn}a{alternative}`, with
 * `r{seq}` added when the history already holds a tool call of that prefix: a resumed session
 * (`continue-previous`, an extension) plays the same turn again, and two tool calls of one id in
 * one conversation make Claude Code drop the second's result ("[Tool use interrupted]").
 */
export function toolIdPrefix(
  request: MessagesRequest,
  address: { conversation: number; turn: number; alternative: number },
  seq: number,
): string {
  const base = `sm${address.conversation}t${address.turn}a${address.alternative}b`;
  const taken = request.messages
    .filter((message) => message.role === 'assistant')
    .flatMap((message) => blocksOf(message.content))
    .some(
      (block) => block.type === 'tool_use' && new RegExp(`${base}\\d+$`).test(String(block.id)),
    );
  return taken ? `${base.slice(0, -1)}r${seq}` : base.slice(0, -1);
}

/** How many assistant messages follow message index `after` (-1: the whole history). */
export function assistantMessagesAfter(request: MessagesRequest, after: number): number {
  return request.messages.filter((message, index) => index > after && message.role === 'assistant')
    .length;
}

/**
 * The identity of a conversation instance: the text of the first user message without Claude
 * Code's `<system-reminder>` blocks. It is the same in every request of one session (tool loops,
 * retries, `--resume`) and differs between independent calls with different prompts.
 */
export function conversationKey(request: MessagesRequest): string {
  const first = request.messages.find((message) => message.role === 'user');
  if (first === undefined) return '';
  return blocksOf(first.content)
    .map(textOf)
    .filter((text) => !text.trimStart().startsWith('<system-reminder>'))
    .join('\n');
}

// Claude Code states its working directory in an environment reminder (2.1.x: first user
// message) or in the system prompt (older versions), Pi in its system prompt ("Current working
// directory: …"); relative tool paths are resolved against it.
const WORKING_DIRECTORY =
  /(?:Primary working directory|Current working directory|Working directory):\s*(\/[^\n]*)/;

/** The agent's working directory when the request reveals it (Claude Code and Pi do). */
export function workingDirectory(request: MessagesRequest): string | undefined {
  const texts = [systemText(request), ...request.messages.map(userText)];
  for (const text of texts) {
    const match = WORKING_DIRECTORY.exec(text);
    if (match?.[1] !== undefined) return match[1].trim();
  }
  return undefined;
}

/**
 * True for Claude Code's own side requests (session titles, summaries, topic detection): they
 * come from Claude Code (user-agent `claude-cli/…` or `x-app: cli`) and offer no tools, while
 * every request of its agent loop offers its tools.
 */
export function isSideRequest(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  request: MessagesRequest,
): boolean {
  const agent = String(headers['user-agent'] ?? '');
  const fromClaudeCode = agent.startsWith('claude-cli/') || headers['x-app'] === 'cli';
  return fromClaudeCode && (request.tools === undefined || request.tools.length === 0);
}
