/** Tool results longer than this are cut (reference §3.3 `tool.result`). */
export const TOOL_RESULT_MAX_CHARS = 2500;

/**
 * The text of a `tool_result` block's content: a string as it is, the `text` parts of an array
 * joined by newlines, anything else as JSON (reference §4.5).
 */
export function toolResultText(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content
      .filter(
        (part): part is { type: 'text'; text: string } =>
          typeof part === 'object' &&
          part !== null &&
          (part as { type?: unknown }).type === 'text' &&
          typeof (part as { text?: unknown }).text === 'string',
      )
      .map((part) => part.text);
    if (texts.length > 0) return texts.join('\n');
  }
  return JSON.stringify(content) ?? '';
}

/** Cuts `text` to {@link TOOL_RESULT_MAX_CHARS} characters plus `...`. */
export function truncateToolResult(text: string): {
  result: string;
  truncated: boolean;
  originalLength: number;
} {
  if (text.length <= TOOL_RESULT_MAX_CHARS) {
    return { result: text, truncated: false, originalLength: text.length };
  }
  return {
    result: `${text.slice(0, TOOL_RESULT_MAX_CHARS)}...`,
    truncated: true,
    originalLength: text.length,
  };
}
