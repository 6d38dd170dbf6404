import { resolve } from 'node:path';
import { NOT_REGULAR_FILE_CODE, readRegularTextFile } from '@hankweave/durable-io';
import type { CodonConfig, HankConfig } from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import { type PromptMetadata, splitFrontmatter } from './frontmatter.js';

export interface PromptPaths {
  /** The directory of hank.json: file references resolve against it. */
  hankDir: string;
  /** The agent's working directory. */
  agentRoot: string;
  /** Where the data is visible to the agent (`agentRoot/read_only_data_source`). */
  dataDir: string;
}

export interface BuiltPrompts {
  prompt: string;
  /** Appended to the agent's own system prompt; undefined when there is nothing to append. */
  appendSystemPrompt?: string;
  /** The first prompt file's frontmatter, reported in `codon.started`. */
  promptMetadata?: PromptMetadata;
}

/**
 * Builds a codon's prompts (reference §1.12): prompt files joined with a blank line (each file's
 * frontmatter stripped; the first file's kept as metadata) or `promptText`; the system append is
 * the global system prompt plus the codon's append; HTML comments are removed and the template
 * variables substituted.
 */
export async function buildPrompts(
  config: HankConfig,
  codon: CodonConfig,
  paths: PromptPaths,
): Promise<BuiltPrompts> {
  let promptMetadata: PromptMetadata | undefined;
  let prompt: string;
  if (codon.promptFile !== undefined) {
    const bodies: string[] = [];
    for (const [index, text] of (
      await readRefs('promptFile', codon.promptFile, paths.hankDir)
    ).entries()) {
      const { body, metadata } = splitFrontmatter(text);
      if (index === 0) promptMetadata = metadata;
      bodies.push(body);
    }
    prompt = bodies.join('\n\n');
  } else {
    prompt = codon.promptText ?? '';
  }
  const systemParts = [
    ...(config.globalSystemPromptFile !== undefined
      ? await readRefs('globalSystemPromptFile', config.globalSystemPromptFile, paths.hankDir)
      : [config.globalSystemPromptText]),
    ...(codon.appendSystemPromptFile !== undefined
      ? await readRefs('appendSystemPromptFile', codon.appendSystemPromptFile, paths.hankDir)
      : [codon.appendSystemPromptText]),
  ]
    .filter((part): part is string => part !== undefined)
    .map((part) => renderPromptText(part, paths).trim())
    .filter((part) => part !== '');
  return {
    prompt: renderPromptText(prompt, paths),
    ...(systemParts.length > 0 ? { appendSystemPrompt: systemParts.join('\n\n') } : {}),
    ...(promptMetadata ? { promptMetadata } : {}),
  };
}

/**
 * Substitutes `<%AGENT_ROOT%>` (and its aliases `<%PROJECT_DIR%>`, `<%EXECUTION_DIR%>`) and
 * `<%DATA_DIR%>`, and strips HTML comments. Used for prompts, system prompts and exhaust prompts.
 */
export function renderPromptText(
  text: string,
  paths: Pick<PromptPaths, 'agentRoot' | 'dataDir'>,
): string {
  return text
    .replace(/<!--[\s\S]*?-->\r?\n?/g, '')
    .replaceAll('<%AGENT_ROOT%>', paths.agentRoot)
    .replaceAll('<%PROJECT_DIR%>', paths.agentRoot)
    .replaceAll('<%EXECUTION_DIR%>', paths.agentRoot)
    .replaceAll('<%DATA_DIR%>', paths.dataDir);
}

/** The hank.json fields that name prompt files, for the message of one that cannot be read. */
type PromptField = 'promptFile' | 'globalSystemPromptFile' | 'appendSystemPromptFile';

async function readRefs(
  field: PromptField,
  refs: string | string[],
  hankDir: string,
): Promise<string[]> {
  const list = Array.isArray(refs) ? refs : [refs];
  return Promise.all(
    list.map(async (ref) => {
      // The absolute path is what was looked for: the user sees at once whether the reference
      // or the hank directory is wrong.
      const path = resolve(hankDir, ref);
      try {
        // Only a regular file at the moment it is read: an agent (or anyone) that put a FIFO in
        // its place must not hang the codon that reads it.
        return await readRegularTextFile(path);
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code;
        const what =
          code === 'ENOENT'
            ? `not found at ${path}`
            : code === NOT_REGULAR_FILE_CODE
              ? `is ${(cause as { kind?: string }).kind ?? 'not a regular file'} (${path}), not a file`
              : `cannot be read at ${path} (${(cause as Error).message})`;
        throw new RuntimeError(
          'RUNTIME_PROMPT_UNREADABLE',
          `${field} ${ref} ${what} (relative to the hank directory ${hankDir})`,
          { cause, details: { field, ref, path, hankDir } },
        );
      }
    }),
  );
}
