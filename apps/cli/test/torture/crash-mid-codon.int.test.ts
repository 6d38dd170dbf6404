import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, runCli, type Sandbox } from '../cli-harness.js';
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

  // Issue 38: the torture run found a Write's temp file (`summary.md.tmp.<pid>.<hash>`) left in
  // agentRoot by a kill. Here the extend codon writes such a file, untracked, and renames it after
  // a pause; the kill comes while it exists. Recovery must leave the tree as a clean run's, with
  // the temp file (and the attempt's tracked file) moved aside into .hankweave/debris.
  it("moves a killed Write's half-written temp file aside, so the tree equals a clean run's", async () => {
    const hankDir = join(sandbox.root, 'slow-write-hank');
    cpSync(FIXTURE_DIR, hankDir, { recursive: true });
    const script = join(hankDir, 'model-script.json');
    const parsed = JSON.parse(readFileSync(script, 'utf8'));
    const extend = parsed.conversations.find((c: { name: string }) => c.name === 'extend');
    const bash = extend.turns[0].content[0].bash;
    const temp = 'notes/summary.md.tmp.4242.c0ffee';
    bash.command += ` && mkdir -p notes && printf 'half a summary' > ${temp} && sleep 2 && mv ${temp} notes/summary.md`;
    writeFileSync(script, JSON.stringify(parsed));
    const spec = { hankDir, dataDir: join(hankDir, 'data'), script, env: sandbox.env };

    const cleanDir = join(sandbox.root, 'slow-clean');
    const clean = await runLifetime({ ...spec, executionDir: cleanDir });
    expect(clean.code, clean.stderr).toBe(0);
    expect(agentFiles(cleanDir).get('notes/summary.md')).toBe('half a summary');

    const executionDir = join(sandbox.root, 'slow-crashed');
    const killed = await runLifetime({
      ...spec,
      executionDir,
      trigger: { kind: 'file', path: join(executionDir, 'agentRoot', temp) },
    });
    expect(killed.killed).toBe(true);
    expect(agentFiles(executionDir).get(temp)).toBe('half a summary');

    const resumed = await runLifetime({ ...spec, executionDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(compareFiles(agentFiles(cleanDir), agentFiles(executionDir))).toEqual([]);
    const rollback = resumed.events.find((event) => event.type === 'rollback.completed');
    const debris = rollback?.data.debris as { directory: string; files: string[] };
    expect(debris.files).toContain(temp);
    expect(readdirSync(join(executionDir, '.hankweave/debris'))).toHaveLength(1);
    expect(readFileSync(join(executionDir, debris.directory, 'agentRoot', temp), 'utf8')).toBe(
      'half a summary',
    );
    // `status` lists it too.
    const status = await runCli(['status', '-e', executionDir], { env: sandbox.env });
    expect(status.stdout).toMatch(/Moved aside\s+\d+ file\(s\) of run .*notes\/summary\.md\.tmp/);
    const json = JSON.parse(
      (await runCli(['status', '-e', executionDir, '--json'], { env: sandbox.env })).stdout,
    );
    expect(json.debris).toHaveLength(1);
    expect(json.debris[0].files).toContain(temp);
    expect(json.debris[0].directory).toBe(debris.directory);
  }, 120_000);
});
