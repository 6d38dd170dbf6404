import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnChild } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const example = fileURLToPath(new URL('../../examples/write-file.script.json', import.meta.url));
const builtCli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    output: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    },
  };
}

describe('runCli()', () => {
  it('prints the base URL of a server answering the script', async () => {
    const { out, output } = capture();
    const outcome = await runCli(['--script', example], output);
    if (!('model' in outcome)) throw new Error(`no server: ${out.stderr}`);
    try {
      expect(out.stdout).toBe(`${outcome.model.url}\n`);
      expect(out.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      const probe = await fetch(`${outcome.model.url}/api/hello`, { method: 'HEAD' });
      expect(probe.status).toBe(200);
    } finally {
      await outcome.model.close();
    }
  });

  it('exits 2 with the usage when --script is missing or --port is invalid', async () => {
    for (const argv of [[], ['--script', example, '--port', 'x'], ['--bogus']]) {
      const { out, output } = capture();
      expect(await runCli(argv, output)).toEqual({ exitCode: 2 });
      expect(out.stderr).toContain('usage: hankweave-scripted-model');
    }
  });

  it('exits 1 with the error code when the script cannot be read', async () => {
    const { out, output } = capture();
    expect(await runCli(['--script', '/nonexistent/s.json'], output)).toEqual({ exitCode: 1 });
    expect(out.stderr).toMatch(/^SCRIPTED_MODEL_SCRIPT_UNREADABLE: /);
  });
});

// The bin itself, once built (CI builds before testing).
describe.runIf(existsSync(builtCli))('hankweave-scripted-model (dist/cli.js)', () => {
  it('serves until SIGTERM and exits 0', async () => {
    const child = spawnChild(builtCli, ['--script', example]);
    const url = (await child.waitForLine(/^http/)).trim();
    expect((await fetch(`${url}/v1/models`)).status).toBe(200);
    // SIGTERM, not the harness's SIGKILL: the clean shutdown is what is under test.
    child.process.kill('SIGTERM');
    const { code } = await child.exited;
    expect(code).toBe(0);
  });
});
