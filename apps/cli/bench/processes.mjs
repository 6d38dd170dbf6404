// The processes the bench measures: the built CLI run as a child for one read (timed from spawn
// to exit, process start included), and `hankweave ui` started as a child to answer the API.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** The built CLI: `pnpm --filter hankweave build` first. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The dashboard's assets as the CLI build copies them (`hankweave ui` serves them). */
export const ASSETS_INDEX = fileURLToPath(new URL('../dist/ui/index.html', import.meta.url));

if (!existsSync(BIN)) {
  console.error(`No CLI build at ${BIN}: run \`pnpm --filter hankweave build\` first.`);
  process.exit(1);
}

// Children run in an empty directory (no hankweave.json from the repository) and without colour.
const CWD = mkdtempSync(join(tmpdir(), 'ui-bench-cwd-'));
process.on('exit', () => rmSync(CWD, { recursive: true, force: true }));
const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

/**
 * Runs `hankweave …args` once: the wall time from spawn to exit (ms) and its stdout. Throws
 * when it exits non-zero.
 */
export function runCli(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: CWD, env: ENV });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0)
        reject(new Error(`hankweave ${args.join(' ')} exited ${code}: ${Buffer.concat(err)}`));
      else resolve({ ms, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}

/**
 * Starts `hankweave ui --base <baseDir> --json` and resolves once it printed `{url, port, token}`.
 * `get(path)` times one API read (request to the whole body), `rss()` reads the server's memory
 * from /proc, `close()` stops it with SIGTERM as Ctrl-C would.
 */
export function startUi(baseDir) {
  const child = spawn(process.execPath, [BIN, 'ui', '--base', baseDir, '--json'], {
    cwd: CWD,
    env: ENV,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      child.stdout.off('data', onData);
      const { port, token, url } = JSON.parse(buffered.slice(0, newline));
      const origin = `http://127.0.0.1:${port}`;
      resolve({
        pid: child.pid,
        port,
        token,
        url,
        origin,
        async get(path) {
          const started = performance.now();
          const response = await fetch(`${origin}${path}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const text = await response.text();
          const ms = performance.now() - started;
          if (!response.ok)
            throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 300)}`);
          return { ms, body: text };
        },
        rss: () => memoryOf(child.pid),
        close: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`hankweave ui exited ${code} before printing its URL: ${stderr}`)),
    );
  });
}

/** VmRSS and VmHWM (peak) of a process, in MB, from /proc (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) =>
    Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) / 1024;
  return { rssMb: field('VmRSS'), peakMb: field('VmHWM') };
}
