#!/usr/bin/env node
// `pnpm test:int`: the integration tier in two lanes on the project's two cores, one turbo run
// each, started together once everything is built. Turbo alone ran two packages at a time but
// started the CLI's tier (the longest, about 15 minutes in CI) only after nine minutes of others,
// and ran it alone at the end. Here the CLI's and the dashboard's tiers (both drive the built CLI)
// make one lane and every other package the other, about as long (the figures are in the root
// README, under "How long it takes"). Moving the dashboard's tier to the other lane was measured
// on 2026-12-01: lanes of 13.7 and 15.1 minutes, against 14.7 and 12.5 and 16.9 and 15.4 in two
// runs of this layout, within their spread. With arguments (`pnpm test:int --filter=...`) it is
// one turbo run with them, as before.
import { spawn } from 'node:child_process';

const LANE_OF_THE_CLI = ['hankweave', '@hankweave/dashboard'];
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
};

const running = new Set();
// Ctrl-C reaches the turbo runs too (same process group): wait for them to stop and report. A
// SIGTERM (a CI timeout) is passed on, so no lane outlives this script.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** Runs turbo with `args`; resolves with its exit code and how long it took. */
function turbo(args) {
  const started = Date.now();
  const child = spawn('pnpm', ['exec', 'turbo', ...args], { stdio: 'inherit', env });
  running.add(child);
  child.on('close', () => running.delete(child));
  return new Promise((resolve) => {
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const extra = process.argv.slice(2);
if (extra.length > 0) {
  process.exitCode = (await turbo(['run', 'test:int', '--concurrency=2', ...extra])).code;
} else {
  // One build first: the lanes then run only their test tasks, never two builds of one package.
  const built = await turbo(['run', 'build', '--output-logs=errors-only']);
  if (built.code !== 0) {
    process.exitCode = built.code;
  } else {
    const lanes = [
      ['the CLI and the dashboard', LANE_OF_THE_CLI.map((name) => `--filter=${name}`)],
      ['every other package', LANE_OF_THE_CLI.map((name) => `--filter=!${name}`)],
    ];
    const results = await Promise.all(
      lanes.map(([, filters]) =>
        // Two streams into one terminal: turbo's full-screen view would have both fight over it.
        turbo(['run', 'test:int', '--only', '--concurrency=1', '--ui=stream', ...filters]),
      ),
    );
    process.stdout.write('\nIntegration tests in two lanes:\n');
    results.forEach(({ code, seconds }, index) => {
      const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
      process.stdout.write(
        `  ${lanes[index][0]}: ${verdict} in ${(seconds / 60).toFixed(1)} min\n`,
      );
    });
    process.exitCode = results.some(({ code }) => code !== 0) ? 1 : 0;
  }
}
