import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CLI_ROOT, createSandbox, runProcess, type Sandbox } from './cli-harness.js';

// Each command line loads what it needs and nothing else: watched from outside, through a
// module-resolution hook that records every module the process resolves.
const REGISTER = fileURLToPath(new URL('./fixtures/load-trace/register.mjs', import.meta.url));
// The orchestrator's bundle, and libraries only a run (or the dashboard) needs.
const ORCHESTRATOR = /\/runtime\/dist\/index\.js$/;
// The dashboard's server (@hankweave/dashboard/server), bundled into the chunk of the `ui` command's
// action (`commands/ui-command.ts`).
const DASHBOARD_SERVER = /\/dist\/ui-command-[\w-]+\.js$/;
const RUN_ONLY = [ORCHESTRATOR, DASHBOARD_SERVER, /isomorphic-git/, /@ai-sdk/, /bullmq/, /\/pg\//];
// The OpenTelemetry SDK: loaded by `traces` and, only with an OTLP endpoint set, by a run.
const OPENTELEMETRY = /@opentelemetry\//;
const HELLO_HANK = join(CLI_ROOT, '..', '..', 'examples', 'hello-hank');

let sandbox: Sandbox;
let dir: TempDir;
beforeAll(async () => {
  sandbox = createSandbox();
  dir = await makeTempDir('cli-lazy-');
});
afterAll(async () => {
  sandbox.cleanup();
  await dir.cleanup();
});

let traces = 0;
async function loaded(args: string[]): Promise<{ code: number | null; urls: string[] }> {
  const file = join(dir.path, `trace-${traces++}.txt`);
  const result = await runProcess(process.execPath, ['--import', REGISTER, BIN, ...args], {
    env: { ...sandbox.env, LOAD_TRACE_FILE: file },
  });
  const urls = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return { code: result.code, urls };
}

const matching = (urls: string[], pattern: RegExp) => urls.filter((url) => pattern.test(url));

describe('command modules load on demand', () => {
  // The controls: a command that runs loads its action's module, and the hook sees it.
  it('`hankweave sessions` loads the orchestrator (the hook sees it)', async () => {
    const { code, urls } = await loaded(['sessions', '--json']);
    expect(code).toBe(0);
    expect(matching(urls, ORCHESTRATOR)).not.toEqual([]);
  });

  it('`hankweave ui` with a bad port loads the dashboard server (the hook sees its chunk)', async () => {
    const { code, urls } = await loaded(['ui', '--port', 'not-a-port']);
    expect(code).toBe(1);
    expect(matching(urls, DASHBOARD_SERVER)).not.toEqual([]);
  });

  it('`hankweave traces export` loads the OpenTelemetry SDK (the hook sees it)', async () => {
    const { urls } = await loaded(['traces', 'export', '-e', '/nonexistent/execution']);
    expect(matching(urls, OPENTELEMETRY)).not.toEqual([]);
  });

  it.each(
    [
      ['--version'],
      // The full help and the completion list every command: their flags, not their actions.
      ['--help'],
      ['__complete', 'codons', '--', 'events'],
      ['--attach', '-e', '/nonexistent/execution'],
      ['status', '--help'],
      ['events', '--help'],
      // One command's help: its flags module alone (the full help above loads every one).
      ['traces', 'export', '--help'],
      // A hank's check needs the settings and the installed adapters, not a run.
      ['validate', HELLO_HANK],
    ].map((args) => ({ line: args.join(' '), args })),
  )('`hankweave $line` loads no part of a run', async ({ args }) => {
    const { urls } = await loaded(args);
    expect(urls.length).toBeGreaterThan(0);
    for (const pattern of [...RUN_ONLY, OPENTELEMETRY]) expect(matching(urls, pattern)).toEqual([]);
  });
});
