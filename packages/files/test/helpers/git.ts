import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Relative PATH entries (pnpm adds node_modules/.bin) would be searched inside the generated
// tree, where a symlink loop named node_modules makes the spawn fail with ELOOP.
const ABSOLUTE_PATH = (process.env.PATH ?? '/usr/bin:/bin')
  .split(':')
  .filter((entry) => entry.startsWith('/'))
  .join(':');

// A HOME that does not exist: git then finds no user config and no default excludesFile
// ($XDG_CONFIG_HOME/git/ignore), and there is nothing to clean up.
const NO_HOME = join(tmpdir(), 'hankweave-files-no-such-home');

/** Git with no user or system configuration (no global excludesFile can leak in). */
function git(cwd: string, args: string[]): Buffer {
  return execFileSync('git', args, {
    cwd,
    maxBuffer: 1 << 30,
    env: {
      PATH: ABSOLUTE_PATH,
      HOME: NO_HOME,
      XDG_CONFIG_HOME: NO_HOME,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      LC_ALL: 'C',
    },
  });
}

/** Makes `root` a scratch repository (nothing staged), with `git init`. */
export function gitInit(root: string): void {
  git(root, ['init', '-q']);
}

/**
 * Makes `root` a scratch repository without spawning git: the three things git checks to
 * recognise a repository (HEAD, objects/, refs/). Halves the process spawns of the oracle test.
 */
export function gitInitBare(root: string): void {
  mkdirSync(join(root, '.git', 'objects'), { recursive: true });
  mkdirSync(join(root, '.git', 'refs'), { recursive: true });
  mkdirSync(join(root, '.git', 'info'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
}

/** `git ls-files --others --cached --exclude-standard`, NUL-separated so no quoting applies. */
export function gitLsFiles(root: string): string[] {
  const out = git(root, ['ls-files', '--others', '--cached', '--exclude-standard', '-z']);
  return out.toString('utf8').split('\0').filter(Boolean);
}

/** `git hash-object` of a file (follows git's rules for the blob id). */
export function gitHashObject(root: string, path: string): string {
  return git(root, ['hash-object', '--no-filters', '--', path]).toString('utf8').trim();
}
