import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The environment variable the repository's root script (`pnpm hankweave ...`) sets, so that the
 * commands the CLI suggests are the ones that work from there. Not `HANKWEAVE_*`: those are passed
 * on to agents.
 */
export const LAUNCHER_ENV = 'HW_CLI_LAUNCHER';

/** How the running CLI was started, as far as it matters for a command a user copies. */
export type Launcher = 'pnpm-root' | 'npx' | 'bin';

/**
 * What a user types to run the CLI again from where they are. A root script started by a pnpm
 * that npx fetched (`npx -y pnpm@10.34.9 hankweave`, the README's setup without a global pnpm)
 * is suggested the same way, since a bare `pnpm` may not exist there.
 */
function prefixOf(launcher: Launcher, env: NodeJS.ProcessEnv, self: string): string {
  if (launcher === 'npx') return 'npx hankweave';
  if (launcher === 'bin') return 'hankweave';
  // After the README's setup (`pnpm example` links the CLI onto PATH), the plain command is this
  // very CLI and works from any directory, where `pnpm hankweave` does not.
  if (pathRunsThisCli(env.PATH ?? '', self)) return 'hankweave';
  const pnpmViaNpx = (env.npm_execpath ?? '').includes(`${sep}_npx${sep}`);
  const version = /\bpnpm\/(\d[\w.-]*)/.exec(env.npm_config_user_agent ?? '')?.[1];
  return pnpmViaNpx && version ? `npx -y pnpm@${version} hankweave` : 'pnpm hankweave';
}

/**
 * Works out the launcher from the environment and the script path. npx is recognised by its
 * cache directory (`_npx`), or by npm's exec variables together with a script inside
 * node_modules: the variables alone leak into every child of an `npx` command (a test runner
 * started with npx), which does not make those children npx launches.
 */
export function detectLauncher(
  env: NodeJS.ProcessEnv = process.env,
  script: string = process.argv[1] ?? '',
): Launcher {
  if (env[LAUNCHER_ENV] === 'pnpm') return 'pnpm-root';
  if (script.includes(`${sep}_npx${sep}`)) return 'npx';
  const inNodeModules = script.includes(`${sep}node_modules${sep}`);
  if (env.npm_command === 'exec' && env.npm_lifecycle_event === 'npx' && inNodeModules)
    return 'npx';
  return 'bin';
}

/** Quotes a path for a shell command line when it needs it. */
export function shellArg(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * A command line the user can copy: the CLI as they started it, then `words` joined by spaces
 * as given (quote paths with {@link shellArg}; placeholders such as `<dir>` stay as written).
 * `commandHint('status', '-e', shellArg(dir))` → `pnpm hankweave status -e /x` from the root script.
 */
export function commandHint(...words: string[]): string {
  return [prefixOf(detectLauncher(), process.env, ownDirectory()), ...words].join(' ');
}

/**
 * {@link commandHint} for a given environment and script path (tests); `cliDir` stands for the
 * directory of the running CLI's `bin.js` (default: this module's directory, `dist/` when built).
 */
export function commandHintIn(env: NodeJS.ProcessEnv, script: string, ...words: string[]): string {
  return [prefixOf(detectLauncher(env, script), env, ownDirectory()), ...words].join(' ');
}

/** The directory of the running CLI's code: `dist/` of the package once built (one bundle). */
function ownDirectory(): string {
  return dirname(fileURLToPath(import.meta.url));
}

const pathChecks = new Map<string, boolean>();

/**
 * Whether the first `hankweave` on `path` is this CLI: a link (the README's setup makes one)
 * whose real file is the `bin.js` beside this module. Looked up once per PATH value.
 */
export function pathRunsThisCli(path: string, cliDir: string): boolean {
  const key = `${cliDir}\0${path}`;
  let known = pathChecks.get(key);
  if (known === undefined) {
    known = false;
    for (const dir of path.split(delimiter)) {
      // pnpm and npm put `node_modules/.bin` on PATH for what they run (the repository's own
      // holds its `pnpm hankweave` launcher); a user's shell does not have it.
      const candidate =
        dir === '' || /node_modules[\\/]\.bin[\\/]?$/.test(dir) ? '' : join(dir, 'hankweave');
      if (candidate === '' || !existsSync(candidate)) continue;
      try {
        const target = realpathSync(candidate);
        known = basename(target) === 'bin.js' && dirname(target) === realpathSync(cliDir);
      } catch {
        known = false;
      }
      break;
    }
    pathChecks.set(key, known);
  }
  return known;
}

/**
 * The subcommand `word` was probably meant to be, by edit distance (at most 2, and less than
 * half the word), or undefined. `statsu` → `status`, `rolback` → `rollback`.
 */
export function closestCommand(word: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance === 0) return name;
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  return best.distance <= 2 && best.distance * 2 < word.length ? best.name : undefined;
}

/** Damerau-Levenshtein distance (adjacent swaps count once: `statsu` is one step from `status`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}

/**
 * The CLI as a command that works from any directory (for files written to disk, such as the
 * README `init` writes): the printed prefix when it is `hankweave` or `npx hankweave`; under the
 * repository's `pnpm hankweave` without the CLI on PATH, `node <this CLI's bin.js>`.
 */
export function portableCommand(): string {
  const prefix = commandHint();
  if (!prefix.startsWith('pnpm') && !prefix.includes(' pnpm@')) return prefix;
  return `node ${shellArg(join(ownDirectory(), 'bin.js'))}`;
}
