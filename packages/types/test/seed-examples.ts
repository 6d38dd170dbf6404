import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One JSON example found in a seed document, exactly as written there. */
export interface SeedExample {
  seed: string;
  line: number;
  value: unknown;
  text: string;
}

// The seeds sit beside the checkout (../shared/seeds), as in the developers' guide.
const SEEDS_DIR = fileURLToPath(new URL('../../../../shared/seeds/', import.meta.url));

/**
 * Extracts every complete JSON example from the seed documents: each balanced `{...}` or `[...]`
 * block that starts a line and parses as JSON as written. Examples with comments or `...`
 * placeholders do not parse and are left out, as the issue asks.
 */
export function extractSeedExamples(): SeedExample[] {
  if (!existsSync(SEEDS_DIR)) {
    throw new Error(
      `The seed documents are not at ${SEEDS_DIR}: the shared/ folder must sit beside the checkout`,
    );
  }
  const examples: SeedExample[] = [];
  for (const seed of readdirSync(SEEDS_DIR)
    .filter((name) => name.endsWith('.txt'))
    .sort()) {
    const text = readFileSync(SEEDS_DIR + seed, 'utf8');
    const lines = text.split('\n');
    let offset = 0;
    for (const [index, line] of lines.entries()) {
      const start = offset + (line.length - line.trimStart().length);
      offset += line.length + 1;
      const first = line.trimStart()[0];
      if (first !== '{' && first !== '[') continue;
      const end = balancedEnd(text, start);
      if (end === undefined) continue;
      const candidate = text.slice(start, end + 1);
      try {
        examples.push({ seed, line: index + 1, value: JSON.parse(candidate), text: candidate });
      } catch {
        // Not JSON as written (comments, "..." placeholders): not a complete example.
      }
    }
  }
  return dropNested(examples);
}

function balancedEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return undefined;
}

/** Keeps only outermost examples: a block inside another complete example is not separate. */
function dropNested(examples: SeedExample[]): SeedExample[] {
  return examples.filter(
    (inner) =>
      !examples.some(
        (outer) =>
          outer !== inner &&
          outer.seed === inner.seed &&
          outer.line < inner.line &&
          outer.text.includes(inner.text),
      ),
  );
}
