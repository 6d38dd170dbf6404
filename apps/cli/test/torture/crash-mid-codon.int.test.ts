import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../cli-harness.js';
import { type PrintedEvent, runLifetime } from './cli-lifetime.js';
import { agentFiles, checkAfterKill, compareFiles } from './invariants.js';
import { FIXTURE_DIR } from './torture-run.js';

// One deterministic crash, found by the random kills of the long run (seed 20261124, kill #243):
// the agent of `tally-pass#0` appends to ledger/tally.txt, a tracked file that no checkpoint
// holds yet, and the whole tree is killed before the codon completes. Recovery rolls back to
// the last success, which must leave the files as that checkpoint had them, so that the redone
// codon starts from the same files as the first attempt did.
describe.skipIf(!existsSync('/proc/self/stat'))('a crash in the middle of a codon', () => {
  let sandbox: Sandbox;
  let base: { hankDir: string; dataDir: string; script: string; env: NodeJS.ProcessEnv };
  beforeAll(() => {
    sandbox = createSandbox();
    const hankDir = join(sandbox.root, 'torture-hank');
    cpSync(FIXTURE_DIR, hankDir, { recursive: true });
    base = {
      hankDir,
      dataDir: join(hankDir, 'data'),
      script: join(hankDir, 'model-script.json'),
      env: sandbox.env,
    };
  });
  afterAll(() => sandbox.cleanup());

  it('leaves no file of the interrupted attempt once recovery has rolled back', async () => {
    const clean = await runLifetime({ ...base, executionDir: join(sandbox.root, 'clean') });
    expect(clean.code, clean.stderr).toBe(0);

    const executionDir = join(sandbox.root, 'crashed');
    const toolOfFirstTally = (event: PrintedEvent) =>
      event.type === 'tool.result' && event.data.codonId === 'tally-pass#0';
    const killed = await runLifetime({
      ...base,
      executionDir,
      trigger: { kind: 'line', matches: toolOfFirstTally, nth: 1 },
    });
    expect(killed.killed).toBe(true);
    expect((await checkAfterKill(executionDir, [])).failures).toEqual([]);
    // The append happened: the kill came after the tool's result.
    expect(agentFiles(executionDir).get('ledger/tally.txt')).toBe('tally\n');

    const resumed = await runLifetime({ ...base, executionDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.events.some((event) => event.type === 'rollback.completed')).toBe(true);
    expect(compareFiles(agentFiles(join(sandbox.root, 'clean')), agentFiles(executionDir))).toEqual(
      [],
    );
  }, 120_000);
});
