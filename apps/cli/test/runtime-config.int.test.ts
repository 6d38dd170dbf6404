import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, executionDirOf, runCli, type Sandbox, stripAnsi } from './cli-harness.js';

// Runtime config (reference §1.10) and inline inputs (§2.2 --input, §2.3 step 8) on the built
// binary. hankweave.json is read from the cwd (the sandbox root here).
describe('runtime config and inputs', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;

  /** The models every codon of a --json run was planned with. */
  const plannedModels = (ndjson: string): string[] =>
    [...ndjson.matchAll(/"codon":\{"id":"[^"]+","name":"[^"]*","model":"([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
  const writeConfig = (config: unknown) =>
    writeFileSync(join(sandbox.root, 'hankweave.json'), JSON.stringify(config));

  beforeAll(() => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    // One codon (observe) keeps each run short; it copies its notes as outputFiles.
    const hank = JSON.parse(readFileSync(join(example.hankDir, 'hank.json'), 'utf8'));
    hank.hank = [{ ...hank.hank[0], outputFiles: [{ copy: ['notes/**/*.md'] }] }];
    hank.overrides = { shimIdleTimeout: 300 };
    writeFileSync(join(example.hankDir, 'hank.json'), JSON.stringify(hank, null, 2));
  });
  afterAll(() => sandbox.cleanup());

  const dryRun = (extra: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(
      [
        example.hankDir,
        example.dataDir,
        '--scripted-model',
        example.script,
        '--start-new',
        '--json',
        ...extra,
      ],
      { env: { ...sandbox.env, ...env }, cwd: sandbox.root },
    );

  it('validate -v shows each value and where it came from', async () => {
    writeConfig({ port: 7001, model: 'haiku', dataHashTimeLimit: 900 });
    const result = await runCli(['validate', '-v', example.hankDir], {
      env: { ...sandbox.env, HANKWEAVE_RUNTIME_MODEL: 'opus' },
      cwd: sandbox.root,
    });
    expect(result.code).toBe(0);
    const out = stripAnsi(result.stdout);
    expect(out).toContain(`hankweave.json: ${join(sandbox.root, 'hankweave.json')}`);
    expect(out).toMatch(/^ {2}port\s+7001\s+\(hankweave\.json\)$/m);
    expect(out).toMatch(/^ {2}model\s+opus\s+\(env HANKWEAVE_RUNTIME_MODEL\)$/m);
    expect(out).toMatch(/^ {2}dataHashTimeLimit\s+900\s+\(hankweave\.json\)$/m);
    expect(out).toMatch(/^ {2}shimIdleTimeout\s+300\s+\(hank overrides\.shimIdleTimeout\)$/m);
    expect(out).toMatch(/^ {2}autostart\s+true\s+\(default\)$/m);
    expect(out).toMatch(
      /^ {2}executionBaseDir\s+\S+\s+\(env HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR\)$/m,
    );
  });

  it('refuses a typo in hankweave.json with a hint, naming the file and field', async () => {
    writeConfig({ prot: 7001, sentinel: { enablePersistance: true } });
    const validate = await runCli(['validate', example.hankDir], {
      env: sandbox.env,
      cwd: sandbox.root,
    });
    expect(validate.code).toBe(1);
    const errors = stripAnsi(validate.stderr);
    expect(errors).toContain(join(sandbox.root, 'hankweave.json'));
    expect(errors).toMatch(/prot: unknown key \(did you mean "port"\?\)/);
    expect(errors).toMatch(
      /sentinel\.enablePersistance: unknown key \(did you mean "enablePersistence"\?\)/,
    );
    // A run refuses it before creating anything.
    const run = await dryRun([]);
    expect(run.code).toBe(1);
    expect(stripAnsi(run.stderr)).toMatch(/did you mean "port"/);
    expect(existsSync(sandbox.baseDir)).toBe(false);
  });

  it('hankweave.json port, model and outputDirectory take effect in a dry run', async () => {
    writeConfig({ port: 0, model: 'haiku', outputDirectory: 'from-config' });
    const run = await dryRun([]);
    expect(run.code, run.stderr).toBe(0);
    const models = plannedModels(run.stdout);
    expect(models.length).toBeGreaterThan(0);
    expect(models.every((model) => model.includes('haiku'))).toBe(true);
    expect(run.stderr).toMatch(/WebSocket: ws:\/\/127\.0\.0\.1:\d+\/ws/);
    expect(readdirSync(join(sandbox.root, 'from-config/notes'))).toContain('observations.md');
  });

  it('env beats hankweave.json, and the command line beats env', async () => {
    writeConfig({ model: 'haiku' });
    const fromEnv = await dryRun([], { HANKWEAVE_RUNTIME_MODEL: 'opus' });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    const opus = plannedModels(fromEnv.stdout);
    expect(opus.length).toBeGreaterThan(0);
    expect(opus.every((model) => model.includes('opus'))).toBe(true);
    const fromCli = await dryRun(['--model', 'sonnet'], { HANKWEAVE_RUNTIME_MODEL: 'opus' });
    expect(fromCli.code, fromCli.stderr).toBe(0);
    const sonnet = plannedModels(fromCli.stdout);
    expect(sonnet.length).toBeGreaterThan(0);
    expect(sonnet.every((model) => model.includes('sonnet'))).toBe(true);
  });

  it('--input text and stdin (-) run offline and the same text resumes the same execution', async () => {
    writeConfig({});
    const text = 'three apples, two pears\n';
    const piped = await runCli([example.hankDir, '-', '--scripted-model', example.script], {
      env: sandbox.env,
      cwd: sandbox.root,
      input: text,
    });
    expect(piped.code, piped.stderr).toBe(0);
    const first = executionDirOf(stripAnsi(piped.stdout));
    const stored = readdirSync(join(sandbox.home, '.hankweave-cache/inputs'));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^input-[0-9a-f]{16}\.txt$/);
    expect(
      readFileSync(join(sandbox.home, '.hankweave-cache/inputs', stored[0] ?? ''), 'utf8'),
    ).toBe(text);
    // The data is a copy inside the execution, not a link to the cache.
    expect(
      readFileSync(join(first, 'agentRoot/read_only_data_source', stored[0] ?? ''), 'utf8'),
    ).toBe(text);

    const inline = await runCli(
      [example.hankDir, '--input', text, '--scripted-model', example.script],
      {
        env: sandbox.env,
        cwd: sandbox.root,
      },
    );
    expect(inline.code, inline.stderr).toBe(0);
    expect(executionDirOf(stripAnsi(inline.stdout))).toBe(first);
    expect(readdirSync(join(sandbox.home, '.hankweave-cache/inputs'))).toEqual(stored);

    const other = await runCli(
      [example.hankDir, '--input', 'other text', '--scripted-model', example.script],
      {
        env: sandbox.env,
        cwd: sandbox.root,
      },
    );
    expect(other.code, other.stderr).toBe(0);
    expect(executionDirOf(stripAnsi(other.stdout))).not.toBe(first);
  });

  it('refuses data given twice and an empty stdin', async () => {
    writeConfig({});
    const twice = await runCli([example.hankDir, example.dataDir, '--input', 'x'], {
      env: sandbox.env,
      cwd: sandbox.root,
    });
    expect(twice.code).toBe(1);
    expect(stripAnsi(twice.stderr)).toContain('The data is given twice');
    const empty = await runCli([example.hankDir, '-'], {
      env: sandbox.env,
      cwd: sandbox.root,
      input: '',
    });
    expect(empty.code).toBe(1);
    expect(stripAnsi(empty.stderr)).toContain('empty');
  });
});
