import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { RuntimeError } from '../errors.js';
import { resolveRuntimeConfig, runtimeOptionsOf } from './resolve-runtime-config.js';
import { envNameOf, RUNTIME_CONFIG_KEYS } from './runtime-config-keys.js';

afterAll(() => cleanupTempDirs());

/** A valid value per key, and a different one, for the precedence of every key. */
const SAMPLES: Record<string, [unknown, unknown, string]> = {
  port: [7001, 7002, '7003'],
  autostart: [false, true, '0'],
  showCosts: [true, true, '1'],
  withoutProxy: [true, true, 'true'],
  model: ['haiku', 'opus', 'sonnet'],
  anthropicBaseUrl: ['http://a.test', 'http://b.test', 'http://c.test'],
  outputDirectory: ['out-a', 'out-b', 'out-c'],
  executionBaseDir: ['ex-a', 'ex-b', 'ex-c'],
  logParsingInterval: [100, 200, '300'],
  dataHashTimeLimit: [1000, 2000, '3000'],
  idleTimeout: [0, 0, '0'],
  shimIdleTimeout: [60, 90, '120'],
  ignoreRigFailures: [true, false, '1'],
  sandbox: [true, true, '1'],
  requireSandbox: [false, false, '0'],
  selfTest: [true, false, '1'],
  'sentinel.enablePersistence': [false, true, 'false'],
  'sentinel.healthCheckGracePeriodMs': [10, 20, '30'],
  'sentinel.waitForAllHealthChecks': [true, false, '1'],
  telemetry: [false, false, '0'],
  'budget.maxDollars': [1.5, 2.5, '3.5'],
  'budget.maxTimeSeconds': [60, 120, '180'],
  'fileWatch.enabled': [false, true, 'false'],
  'fileWatch.minFiles': [500, 0, '20000'],
  'fileWatch.settleTimeoutMs': [5000, 3000, '15000'],
};

/** What an env text means for a key of this kind (booleans `true`/`1`, `false`/`0`; numbers). */
function parsedEnv(key: string, text: string): unknown {
  const type = RUNTIME_CONFIG_KEYS.find((spec) => spec.key === key)?.kind.type;
  if (type === 'boolean') return text === 'true' || text === '1';
  return type === 'integer' || type === 'positive' ? Number(text) : text;
}

function nest(values: Record<string, unknown>): Record<string, unknown> {
  const object: Record<string, Record<string, unknown> | unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const [head, tail] = key.split('.') as [string, string | undefined];
    if (tail === undefined) object[head] = value;
    else object[head] = { ...((object[head] as Record<string, unknown>) ?? {}), [tail]: value };
  }
  return object;
}

async function dirWith(config: unknown): Promise<string> {
  const dir = (await makeTempDir('runtime-config-')).path;
  writeFileSync(
    join(dir, 'hankweave.json'),
    typeof config === 'string' ? config : JSON.stringify(config),
  );
  return dir;
}

function invalid(run: () => unknown): RuntimeError {
  try {
    run();
  } catch (error) {
    expect(RuntimeError.is(error, 'RUNTIME_INVALID_OPTION')).toBe(true);
    return error as RuntimeError;
  }
  throw new Error('expected RUNTIME_INVALID_OPTION');
}

describe('resolveRuntimeConfig', () => {
  it('has a sample for every key (so every key below is tested)', async () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(RUNTIME_CONFIG_KEYS.map((spec) => spec.key).sort());
  });

  it('gives defaults with no file, env or flags', async () => {
    const config = resolveRuntimeConfig({ cwd: (await makeTempDir('empty-')).path, env: {} });
    expect(config.file).toBeUndefined();
    expect(config.get('autostart')).toBe(true);
    expect(config.get('dataHashTimeLimit')).toBe(5000);
    expect(config.get('shimIdleTimeout')).toBe(180);
    expect(config.get('port')).toBeUndefined();
    expect(config.entries.every((entry) => entry.source === 'default')).toBe(true);
    expect(config.warnings).toEqual([]);
  });

  it.each(Object.keys(SAMPLES))('%s: defaults < hankweave.json < hank < env < cli', async (key) => {
    const [fileValue, cliValue, envText] = SAMPLES[key] as [unknown, unknown, string];
    const spec = RUNTIME_CONFIG_KEYS.find((candidate) => candidate.key === key);
    const cwd = await dirWith(nest({ [key]: fileValue }));
    const fromFile = resolveRuntimeConfig({ cwd, env: {} });
    expect(fromFile.get(key)).toBe(fileValue);
    expect(fromFile.sourceOf(key)).toBe('hankweave.json');

    let hank: unknown;
    if (spec?.hankOverride) {
      const hankValue = key === 'model' ? 'hank-model' : cliValue;
      hank = { overrides: nest({ [spec.hankOverride.slice('overrides.'.length)]: hankValue }) };
      const fromHank = resolveRuntimeConfig({ cwd, env: {}, hank });
      expect(fromHank.sourceOf(key)).toBe('hank');
      expect(fromHank.get(key)).toBe(hankValue);
    }
    const env = { [envNameOf(key)]: envText };
    const fromEnv = resolveRuntimeConfig({ cwd, env, hank });
    expect(fromEnv.sourceOf(key)).toBe('env');
    expect(fromEnv.get(key)).toBe(parsedEnv(key, envText));

    const fromCli = resolveRuntimeConfig({ cwd, env, hank, cli: { [key]: cliValue as never } });
    expect(fromCli.sourceOf(key)).toBe('cli');
    expect(fromCli.get(key)).toBe(cliValue);
  });

  it('maps env names to nested keys', async () => {
    expect(envNameOf('sentinel.enablePersistence')).toBe(
      'HANKWEAVE_RUNTIME_SENTINEL_ENABLE_PERSISTENCE',
    );
    expect(envNameOf('executionBaseDir')).toBe('HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR');
    expect(envNameOf('budget.maxDollars')).toBe('HANKWEAVE_RUNTIME_BUDGET_MAX_DOLLARS');
  });

  it('refuses an unknown key with a hint, naming the file and field', async () => {
    const cwd = await dirWith({ prot: 7000, sentinel: { enablePersistance: true } });
    const error = invalid(() => resolveRuntimeConfig({ cwd, env: {} }));
    expect(error.details.file).toBe(join(cwd, 'hankweave.json'));
    const problems = error.details.problems as { field: string; message: string }[];
    expect(problems.map((problem) => problem.field)).toEqual([
      'prot',
      'sentinel.enablePersistance',
    ]);
    expect(problems[0]?.message).toContain('"port"');
    expect(problems[1]?.message).toContain('"enablePersistence"');
  });

  it.each([
    [{ port: 70000 }, 'port'],
    [{ port: 1.5 }, 'port'],
    [{ autostart: 'yes' }, 'autostart'],
    [{ model: '' }, 'model'],
    [{ anthropicBaseUrl: 'not a url' }, 'anthropicBaseUrl'],
    [{ idleTimeout: 256 }, 'idleTimeout'],
    [{ shimIdleTimeout: 0 }, 'shimIdleTimeout'],
    [{ dataHashTimeLimit: -1 }, 'dataHashTimeLimit'],
    [{ budget: { maxDollars: 0 } }, 'budget.maxDollars'],
    [{ budget: 5 }, 'budget'],
    [{ sentinel: { healthCheckGracePeriodMs: -1 } }, 'sentinel.healthCheckGracePeriodMs'],
    [[1], '(root)'],
  ])('refuses %j at %s', async (config, field) => {
    const where = await dirWith(config);
    const error = invalid(() => resolveRuntimeConfig({ cwd: where, env: {} }));
    expect((error.details.problems as { field: string }[])[0]?.field).toBe(field);
  });

  it('reports a JSON syntax error with file, line and column', async () => {
    const cwd = await dirWith('{\n  "port": 1,\n}');
    const error = invalid(() => resolveRuntimeConfig({ cwd, env: {} }));
    expect(error.details.file).toBe(join(cwd, 'hankweave.json'));
    expect(error.details.line).toBe(3);
  });

  it('refuses a malformed env value, naming the variable', async () => {
    const cwd = (await makeTempDir('empty-')).path;
    for (const [name, value] of [
      ['HANKWEAVE_RUNTIME_PORT', 'abc'],
      ['HANKWEAVE_RUNTIME_SHOW_COSTS', 'yes'],
      ['HANKWEAVE_RUNTIME_BUDGET_MAX_DOLLARS', ''],
    ]) {
      const error = invalid(() => resolveRuntimeConfig({ cwd, env: { [name as string]: value } }));
      expect((error.details.problems as { field: string }[])[0]?.field).toBe(name);
    }
  });

  it('warns about an unknown HANKWEAVE_RUNTIME_ variable with a hint', async () => {
    const config = resolveRuntimeConfig({
      cwd: (await makeTempDir('empty-')).path,
      env: { HANKWEAVE_RUNTIME_PROT: '1', HANKWEAVE_OTHER: 'x' },
    });
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain('HANKWEAVE_RUNTIME_PORT');
  });

  it('refuses withoutProxy: false and warns for values it cannot carry out', async () => {
    const where = await dirWith({ withoutProxy: false });
    invalid(() => resolveRuntimeConfig({ cwd: where, env: {} }));
    const config = resolveRuntimeConfig({
      cwd: await dirWith({
        telemetry: true,
        logParsingInterval: 100,
        idleTimeout: 30,
        showCosts: false,
        sentinel: { enablePersistence: false, waitForAllHealthChecks: true },
      }),
      env: {},
    });
    // enablePersistence is carried out (sentinel history kept in memory only); health checks
    // are not made, so their settings are warned about.
    expect(config.warnings.map((warning) => warning.split(' ')[0])).toEqual([
      'showCosts',
      'logParsingInterval',
      'idleTimeout',
      'sentinel.waitForAllHealthChecks',
      'telemetry',
    ]);
    expect(runtimeOptionsOf(config).sentinel).toEqual({ enablePersistence: false });
    const quiet = resolveRuntimeConfig({
      cwd: await dirWith({ telemetry: false, withoutProxy: true, idleTimeout: 0, showCosts: true }),
      env: {},
    });
    expect(quiet.warnings).toEqual([]);
  });

  it('refuses a bad command-line value', async () => {
    const cwd = (await makeTempDir('empty-')).path;
    invalid(() => resolveRuntimeConfig({ cwd, env: {}, cli: { port: '-1' } }));
  });
});

describe('runtimeOptionsOf', () => {
  it('maps the effective values to createRuntime options, paths against the cwd', async () => {
    const cwd = await dirWith({
      port: 7100,
      model: 'haiku',
      outputDirectory: 'out',
      executionBaseDir: 'runs',
      dataHashTimeLimit: 900,
      shimIdleTimeout: 30,
      autostart: false,
      ignoreRigFailures: true,
      anthropicBaseUrl: 'http://127.0.0.1:9/',
      budget: { maxDollars: 2 },
      fileWatch: { minFiles: 0, settleTimeoutMs: 9000 },
    });
    const options = runtimeOptionsOf(resolveRuntimeConfig({ cwd, env: {} }), cwd);
    expect(options).toEqual({
      port: 7100,
      model: 'haiku',
      outputDirectory: join(cwd, 'out'),
      executionBaseDir: join(cwd, 'runs'),
      dataHashTimeLimitMs: 900,
      idleTimeoutMs: 30_000,
      autostart: false,
      ignoreRigFailures: true,
      anthropicBaseUrl: 'http://127.0.0.1:9/',
      budget: { maxDollars: 2 },
      fileWatch: { minFiles: 0, settleTimeoutMs: 9000 },
    });
  });

  it('maps sandbox and requireSandbox to the sandbox option; the stronger source wins', async () => {
    const cwd = await dirWith({ requireSandbox: true });
    const required = resolveRuntimeConfig({ cwd, env: {} });
    expect(runtimeOptionsOf(required, cwd).sandbox).toBe('require');
    // --no-sandbox on the command line wins over the file's requirement.
    const off = resolveRuntimeConfig({ cwd, env: {}, cli: { sandbox: false } });
    expect(runtimeOptionsOf(off, cwd).sandbox).toBe('off');
    const viaEnv = resolveRuntimeConfig({
      cwd: (await makeTempDir('empty-')).path,
      env: { HANKWEAVE_RUNTIME_REQUIRE_SANDBOX: '1' },
    });
    expect(runtimeOptionsOf(viaEnv).sandbox).toBe('require');
    expect(runtimeOptionsOf(resolveRuntimeConfig({ cwd, env: {}, cli: {} })).sandbox).toBe(
      'require',
    );
    const both = await dirWith({ sandbox: false, requireSandbox: true });
    expect(() => runtimeOptionsOf(resolveRuntimeConfig({ cwd: both, env: {} }), both)).toThrow(
      expect.objectContaining({ code: 'RUNTIME_INVALID_OPTION' }),
    );
  });

  it("leaves the hank's own overrides to the runtime", async () => {
    const cwd = await dirWith({ model: 'haiku' });
    const config = resolveRuntimeConfig({ cwd, env: {}, hank: { overrides: { model: 'opus' } } });
    expect(config.get('model')).toBe('opus');
    expect(runtimeOptionsOf(config, cwd).model).toBeUndefined();
  });
});
