import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** A hank found near the current directory, for the interactive start to offer. */
export interface FoundHank {
  /** The directory holding hank.json. */
  dir: string;
  /** `meta.name`, else the folder's name. */
  name: string;
  /** How many codons it lists (loops count their codons); undefined when it does not parse. */
  codons?: number;
  /** It ships a model script (`model-script.json`): it can dry-run offline. */
  script?: string;
}

const MAX_FOUND = 20;
const SKIPPED = new Set(['node_modules', 'dist', 'build']);

/**
 * The hanks in `cwd` and its folders two levels down (hank.json beside, in `my-hank/`, in
 * `examples/hello-hank/`), the current directory first; hidden folders, node_modules, dist and
 * build are not looked into. At most 20.
 */
export function findHanks(cwd: string): FoundHank[] {
  const found: FoundHank[] = [];
  const visit = (dir: string, depth: number) => {
    if (found.length >= MAX_FOUND) return;
    if (existsSync(join(dir, 'hank.json'))) found.push(describe(dir));
    if (depth === 2) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      visit(join(dir, entry.name), depth + 1);
    }
  };
  visit(cwd, 0);
  return found;
}

function describe(dir: string): FoundHank {
  const script = join(dir, 'model-script.json');
  const hank: FoundHank = {
    dir,
    name: basename(dir),
    ...(existsSync(script) ? { script } : {}),
  };
  try {
    const config = JSON.parse(readFileSync(join(dir, 'hank.json'), 'utf8')) as {
      meta?: { name?: unknown };
      hank?: unknown;
    };
    if (typeof config.meta?.name === 'string' && config.meta.name !== '')
      hank.name = config.meta.name;
    if (Array.isArray(config.hank))
      hank.codons = config.hank.reduce(
        (count: number, item: { codons?: unknown[] }) =>
          count + (Array.isArray(item?.codons) ? item.codons.length : 1),
        0,
      );
  } catch {
    // Not JSON: still offered; validation will say what is wrong.
  }
  return hank;
}
