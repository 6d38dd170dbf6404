import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { CLI_BIN, formatDuration, QUIET_TURBO_ENV, REPO_ROOT, TURBO } from './paths.mjs';

/** A line of turbo's output that belongs to a task: `@hankweave/types:build: <text>`. */
const TASK_LINE = /^(\S+?):build: ?(.*)$/;

/**
 * @typedef {object} BuildResult
 * @property {number} code turbo's exit code (0: everything is built)
 * @property {string[]} built the packages that were built (not restored from turbo's cache)
 * @property {number} total how many packages the CLI needs
 * @property {number} ms how long it took
 */

/**
 * Builds the CLI and the workspace packages it uses (`turbo run build --filter=hankweave...`),
 * showing one line per package that is actually built instead of turbo's own output: the
 * package's build log stays hidden unless it fails. With `quiet`, nothing at all is printed
 * while every package is fresh (the usual `pnpm hankweave` call); the first package to build
 * prints `announce` first. Lines go to `print` (stderr by default: stdout is the CLI's).
 *
 * @param {{ quiet?: boolean, announce?: string, print?: (line: string) => void }} [options]
 * @returns {Promise<BuildResult>}
 */
export function buildCli(options = {}) {
  const print = options.print ?? ((line) => process.stderr.write(`${line}\n`));
  let announced = !options.quiet;
  const say = (line) => {
    if (!announced) {
      announced = true;
      if (options.announce) print(options.announce);
    }
    print(line);
  };
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      TURBO,
      [
        'run',
        'build',
        '--filter=hankweave...',
        '--output-logs=new-only',
        '--log-order=stream',
        '--no-color',
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...QUIET_TURBO_ENV },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let total = 0;
    let seen = 0;
    /** @type {string[]} */
    const built = [];
    /** Each task's own log lines, printed only when the build fails. */
    const logs = new Map();
    /** Turbo's lines outside any task (its header and the final tally). */
    const general = [];
    const onLine = (line) => {
      const task = TASK_LINE.exec(line);
      if (!task) {
        const count = /Running build in (\d+) packages/.exec(line);
        if (count) total = Number(count[1]);
        if (line.trim() !== '') general.push(line);
        return;
      }
      const [, name, text] = /** @type {[string, string, string]} */ (task);
      if (/^cache (hit|miss)/.test(text)) {
        seen++;
        if (text.startsWith('cache miss')) {
          built.push(name);
          const width = String(total || seen).length;
          say(`  [${String(seen).padStart(width)}/${total || '?'}] building ${name}`);
        }
        return;
      }
      logs.set(name, [...(logs.get(name) ?? []), text]);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.on('error', (error) => {
      print(`hankweave: could not start turbo (${TURBO}): ${error.message}`);
      print('→ Install the dependencies first: pnpm install --frozen-lockfile');
      resolve({ code: 1, built, total, ms: Date.now() - started });
    });
    child.on('close', (code) => {
      const ms = Date.now() - started;
      if (code === 0 && existsSync(CLI_BIN)) {
        if (built.length > 0)
          say(`  built ${built.length} of ${total} package(s) in ${formatDuration(ms)}`);
        resolve({ code: 0, built, total, ms });
        return;
      }
      reportFailure(say, logs, general);
      resolve({ code: code || 1, built, total, ms });
    });
  });
}

/** The logs of the tasks that failed (all logs when none can be told apart), then turbo's tally. */
function reportFailure(say, logs, general) {
  const failed = [...logs].filter(([, lines]) =>
    lines.some((line) => /ERR!|ERROR|ELIFECYCLE|error TS\d+|Build failed/.test(line)),
  );
  say('hankweave: the build failed.');
  for (const [name, lines] of failed.length > 0 ? failed : [...logs]) {
    say(`--- ${name} ---`);
    for (const line of lines) say(line);
  }
  for (const line of general.filter((line) => /Failed|Tasks:|ERROR/.test(line))) say(line);
  say('→ Fix the error above, then run the command again (`pnpm build` shows the whole output).');
}
