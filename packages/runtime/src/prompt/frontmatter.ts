/** The metadata a prompt file may declare in its frontmatter (reference §1.12). */
export interface PromptMetadata {
  [key: string]: unknown;
  name?: string;
  description?: string;
  tags?: string[];
  version?: string;
  author?: string;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const KEYS = ['name', 'description', 'tags', 'version', 'author'] as const;

/**
 * Splits `---` frontmatter from a prompt. Only the five documented keys are read, as simple
 * `key: value` lines (tags as `[a, b]` or a `- item` list), so no YAML library is needed.
 */
export function splitFrontmatter(text: string): { body: string; metadata?: PromptMetadata } {
  const match = FRONTMATTER.exec(text);
  if (!match) return { body: text };
  const metadata: PromptMetadata = {};
  let listKey: string | undefined;
  for (const line of (match[1] as string).split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey === 'tags') {
      metadata.tags = [...(metadata.tags ?? []), unquote(item[1] as string)];
      continue;
    }
    const pair = /^([A-Za-z]+):\s*(.*)$/.exec(line);
    if (!pair) continue;
    const key = pair[1] as string;
    const value = (pair[2] as string).trim();
    listKey = key;
    if (!(KEYS as readonly string[]).includes(key)) continue;
    if (key === 'tags') {
      if (value.startsWith('[')) {
        metadata.tags = value
          .slice(1, -1)
          .split(',')
          .map((tag) => unquote(tag.trim()))
          .filter(Boolean);
      } else if (value !== '') metadata.tags = [unquote(value)];
    } else if (value !== '') {
      metadata[key as Exclude<(typeof KEYS)[number], 'tags'>] = unquote(value);
    }
  }
  return { body: text.slice(match[0].length), metadata };
}

function unquote(value: string): string {
  return /^(['"]).*\1$/.test(value) ? value.slice(1, -1) : value;
}
