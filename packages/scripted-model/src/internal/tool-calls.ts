import { isAbsolute, join } from 'node:path';
import type { ContentBlock } from '../script-schema.js';

/** The agents whose built-in tools the shorthands (`write`, `edit`, `bash`, `read`) know. */
export type ToolDialect = 'claude-code' | 'pi';

/** A content block that becomes a tool call. */
export type ToolBlock = Extract<
  ContentBlock,
  { write: unknown } | { edit: unknown } | { bash: unknown } | { read: unknown } | { tool: unknown }
>;

/** A tool call in API-neutral form: each API wraps it in its own envelope. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Set only when the script gives the id (`{tool: {id}}`). */
  id?: string;
}

/** What the request tells about the agent that sent it. */
export interface ToolContext {
  /** Names of the tools the request offers. */
  offered: readonly string[];
  /** The agent's working directory, when the request reveals it. */
  cwd?: string;
  /** The dialect to use when the request offers neither agent's tool of that kind. */
  fallback: ToolDialect;
}

type Shorthand = 'write' | 'edit' | 'bash' | 'read';

// Claude Code's tools are capitalised, Pi's are lowercase; the offered names tell the agents apart.
const TOOL_NAMES: Record<Shorthand, Record<ToolDialect, string>> = {
  write: { 'claude-code': 'Write', pi: 'write' },
  edit: { 'claude-code': 'Edit', pi: 'edit' },
  bash: { 'claude-code': 'Bash', pi: 'bash' },
  read: { 'claude-code': 'Read', pi: 'read' },
};

/** True for the blocks that become tool calls (not text, thinking or structured output). */
export function isToolBlock(block: ContentBlock): block is ToolBlock {
  return (
    'write' in block || 'edit' in block || 'bash' in block || 'read' in block || 'tool' in block
  );
}

function dialectFor(kind: Shorthand, context: ToolContext): ToolDialect {
  const names = TOOL_NAMES[kind];
  if (context.offered.includes(names['claude-code'])) return 'claude-code';
  if (context.offered.includes(names.pi)) return 'pi';
  return context.fallback;
}

/**
 * The tool call a script block asks for, in the argument shape of the agent that offers the tool:
 * Claude Code (`Write {file_path, content}`, …) or Pi (`write {path, content}`, …). Relative paths
 * are resolved against the working directory when it is known, as a real model would write them.
 */
export function scriptedToolCall(block: ToolBlock, context: ToolContext): ToolCall {
  const path = (value: string) =>
    context.cwd !== undefined && !isAbsolute(value) ? join(context.cwd, value) : value;
  if ('tool' in block) {
    const { name, input, id } = block.tool;
    return id === undefined ? { name, input } : { name, input, id };
  }
  if ('write' in block) {
    const dialect = dialectFor('write', context);
    const key = dialect === 'pi' ? 'path' : 'file_path';
    const input = { [key]: path(block.write.path), content: block.write.content };
    return { name: TOOL_NAMES.write[dialect], input };
  }
  if ('edit' in block) {
    const { path: file, oldString, newString, replaceAll } = block.edit;
    const dialect = dialectFor('edit', context);
    // Pi's edit takes a list of unique replacements and has no replace-all; the flag is dropped.
    const input =
      dialect === 'pi'
        ? { path: path(file), edits: [{ oldText: oldString, newText: newString }] }
        : {
            file_path: path(file),
            old_string: oldString,
            new_string: newString,
            ...(replaceAll === undefined ? {} : { replace_all: replaceAll }),
          };
    return { name: TOOL_NAMES.edit[dialect], input };
  }
  if ('bash' in block) {
    const bash = typeof block.bash === 'string' ? { command: block.bash } : block.bash;
    const dialect = dialectFor('bash', context);
    // Claude Code's timeout is in milliseconds, Pi's in seconds; Pi's bash has no description.
    const input =
      dialect === 'pi'
        ? {
            command: bash.command,
            ...(bash.timeoutMs === undefined ? {} : { timeout: Math.ceil(bash.timeoutMs / 1000) }),
          }
        : {
            command: bash.command,
            ...(bash.description === undefined ? {} : { description: bash.description }),
            ...(bash.timeoutMs === undefined ? {} : { timeout: bash.timeoutMs }),
          };
    return { name: TOOL_NAMES.bash[dialect], input };
  }
  const read = typeof block.read === 'string' ? { path: block.read } : block.read;
  const dialect = dialectFor('read', context);
  const input = {
    [dialect === 'pi' ? 'path' : 'file_path']: path(read.path),
    ...(read.offset === undefined ? {} : { offset: read.offset }),
    ...(read.limit === undefined ? {} : { limit: read.limit }),
  };
  return { name: TOOL_NAMES.read[dialect], input };
}
