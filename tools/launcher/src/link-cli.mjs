import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CLI_BIN, CLI_DIR } from './paths.mjs';

/**
 * @typedef {object} LinkResult
 * @property {boolean} ok the link is in place
 * @property {string[]} lines what to tell the user: the first line says what happened
 * @property {string} [hint] the next step when something is left to do (a `→` line)
 * @property {string} [bin] the linked command, `<npm global prefix>/bin/hankweave`
 * @property {boolean} [onPath] `hankweave` typed in a shell runs this checkout's CLI
 */

/**
 * The environment for npm: without the `npm_config_*` variables pnpm sets for its own scripts
 * (npm warns about keys it does not know, such as `verify-deps-before-run`), keeping the user's
 * own prefix.
 */
function npmEnv() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (
      /^npm_config_/i.test(name) &&
      !/^npm_config_(prefix|registry|cache|userconfig|globalconfig)$/i.test(name)
    )
      delete env[name];
  }
  return env;
}

function npm(args) {
  return spawnSync('npm', args, { encoding: 'utf8', env: npmEnv() });
}

function realpathOrUndefined(path) {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The first `hankweave` on `PATH` and what it really runs. Directories `node_modules/.bin` are
 * passed over: pnpm and npm put them on PATH for the scripts they run (this repository's own
 * holds the `pnpm hankweave` launcher), not in a user's shell.
 */
export function hankweaveOnPath(path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (dir === '' || /node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    const candidate = join(dir, 'hankweave');
    if (existsSync(candidate)) return { path: candidate, target: realpathOrUndefined(candidate) };
  }
  return undefined;
}

/** What is installed globally under the name `hankweave` now, in words (undefined: nothing). */
function describeInstalled(globalPackage) {
  let stat;
  try {
    stat = lstatSync(globalPackage);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink())
    return `the link to ${realpathOrUndefined(globalPackage) ?? 'a missing directory'}`;
  try {
    const { version } = JSON.parse(readFileSync(join(globalPackage, 'package.json'), 'utf8'));
    return `hankweave ${version} (installed from a package)`;
  } catch {
    return 'a global package named hankweave';
  }
}

/**
 * Puts `hankweave` on PATH: a global npm link of this checkout's CLI (`npm install -g apps/cli`,
 * which for a directory makes `<prefix>/lib/node_modules/hankweave` a symlink to it and
 * `<prefix>/bin/hankweave` a symlink to its `dist/bin.js`). Nothing is downloaded: the CLI's
 * dependencies are the workspace's, so it works offline, and every later `pnpm build` updates
 * the command. `npm uninstall -g hankweave` removes it.
 *
 * @returns {LinkResult}
 */
export function linkCli() {
  const prefixRun = npm(['prefix', '-g']);
  const prefix = prefixRun.stdout?.trim();
  if (prefixRun.status !== 0 || !prefix) {
    return {
      ok: false,
      lines: [
        `could not put hankweave on PATH: \`npm prefix -g\` failed (${(prefixRun.error?.message ?? prefixRun.stderr ?? '').trim()})`,
      ],
      hint: 'Run the CLI from this checkout as `pnpm hankweave`, or install npm and run `pnpm run link-cli`.',
    };
  }
  const win = process.platform === 'win32';
  const binDir = win ? prefix : join(prefix, 'bin');
  const globalPackage = win
    ? join(prefix, 'node_modules', 'hankweave')
    : join(prefix, 'lib', 'node_modules', 'hankweave');
  const bin = join(binDir, win ? 'hankweave.cmd' : 'hankweave');
  const self = realpathSync(CLI_DIR);
  const already = realpathOrUndefined(globalPackage) === self && existsSync(bin);
  let replaced;
  if (!already) {
    replaced = describeInstalled(globalPackage);
    const run = npm([
      'install',
      '--global',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      CLI_DIR,
    ]);
    if (run.status !== 0) {
      const output = `${run.stderr ?? ''}${run.stdout ?? ''}${run.error?.message ?? ''}`;
      const denied = /EACCES|EPERM|permission denied/i.test(output);
      const first = output.split('\n').find((line) => line.trim() !== '') ?? `exit ${run.status}`;
      return {
        ok: false,
        lines: [
          denied
            ? `could not put hankweave on PATH: npm's global directory ${prefix} is not writable by you`
            : `could not put hankweave on PATH: \`npm install --global ${CLI_DIR}\` failed: ${first.trim()}`,
        ],
        hint: denied
          ? 'Give npm a global directory you own: `npm config set prefix ~/.local` (with ~/.local/bin on your PATH), then `pnpm run link-cli`. Meanwhile `pnpm hankweave` runs the CLI from this checkout.'
          : 'Run `pnpm run link-cli` to try again; meanwhile `pnpm hankweave` runs the CLI from this checkout.',
      };
    }
  }
  const found = hankweaveOnPath();
  const selfBin = realpathSync(CLI_BIN);
  const lines = [
    `${already ? 'hankweave is on your PATH' : 'put hankweave on your PATH'}: ${bin} → ${CLI_BIN}`,
    `(a link to this checkout, so \`pnpm build\` updates it; \`npm uninstall -g hankweave\` removes it${replaced ? `; it replaced ${replaced}` : ''})`,
  ];
  if (found?.target === selfBin) return { ok: true, lines, bin, onPath: true };
  if (found) {
    return {
      ok: true,
      lines,
      bin,
      onPath: false,
      hint: `Another hankweave comes first on your PATH: ${found.path}${found.target && found.target !== found.path ? ` (→ ${found.target})` : ''}. Remove it, or put ${binDir} before it in PATH.`,
    };
  }
  return {
    ok: true,
    lines,
    bin,
    onPath: false,
    hint: `${binDir} is not on your PATH: add it (\`export PATH="${binDir}:$PATH"\` in ~/.bashrc or ~/.zshrc), then \`hankweave\` works from any directory.`,
  };
}
