import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { FakeHarness } from '@hankweave/harness/testing';
import { type HankConfig, hankConfigSchema } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';
import { preflight } from './preflight.js';
import { probeTcp } from './probe-endpoint.js';

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Hello',
  ...extra,
});
const hankOf = (...codons: unknown[]) => ({ meta: { name: 'p', version: '1.0.0' }, hank: codons });
const configOf = (...codons: unknown[]): HankConfig => hankConfigSchema.parse(hankOf(...codons));

/** A loopback HTTP server that answers every request, as the scripted model does. */
async function answeringServer(): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, server };
}

/** A loopback port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('preflight()', () => {
  let dir: TempDir;
  let home: string;
  let emptyConfig: string;
  const servers: Server[] = [];
  /** No key, a private HOME and an empty Claude config dir: a machine nobody logged in on. */
  const bareEnv = () => ({ PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: emptyConfig });

  beforeEach(async () => {
    dir = await makeTempDir('preflight-');
    home = join(dir.path, 'home');
    emptyConfig = join(dir.path, 'claude-config');
    mkdirSync(home);
    mkdirSync(emptyConfig);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) server.close();
    await dir.cleanup();
  });

  it('fails with RUNTIME_NO_CREDENTIALS naming the key, claude login and --scripted-model', async () => {
    const error = await preflight({ config: configOf(codon('a')), env: bareEnv() }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: 'RUNTIME_NO_CREDENTIALS',
      details: {
        codons: ['a'],
        looked: [join(emptyConfig, '.credentials.json'), expect.any(String)],
      },
    });
    const message = (error as Error).message;
    expect(message).toContain('ANTHROPIC_API_KEY');
    expect(message).toContain('claude login');
    expect(message).toContain('--scripted-model');
  });

  it('names only the codons whose agent has no credentials, after their env is applied', async () => {
    const config = configOf(
      codon('keyed', { env: { ANTHROPIC_API_KEY: 'sk-codon' } }),
      codon('bare'),
      {
        type: 'loop',
        id: 'l',
        name: 'L',
        terminateOn: { type: 'iterationLimit', limit: 1 },
        codons: [codon('looped')],
      },
    );
    await expect(preflight({ config, env: bareEnv() })).rejects.toMatchObject({
      code: 'RUNTIME_NO_CREDENTIALS',
      details: { codons: ['bare', 'looped'] },
    });
  });

  it('accepts a key, a HANKWEAVE_ key, a token or a claude login, then checks the API', async () => {
    const model = await answeringServer();
    servers.push(model.server);
    const base = { ...bareEnv(), ANTHROPIC_BASE_URL: model.url };
    // The base URL alone counts (a proxy may add the key); each source is reported.
    for (const [extra, source] of [
      [{ ANTHROPIC_API_KEY: 'sk-x' }, 'ANTHROPIC_API_KEY'],
      [{ HANKWEAVE_ANTHROPIC_AUTH_TOKEN: 't' }, 'ANTHROPIC_AUTH_TOKEN'],
      [{}, 'ANTHROPIC_BASE_URL'],
    ] as const) {
      const report = await preflight({ config: configOf(codon('a')), env: { ...base, ...extra } });
      expect(report.credentials).toEqual([source]);
      expect(report.endpoints).toEqual([new URL(model.url).host]);
    }
    expect(model.requests).toEqual(['HEAD /', 'HEAD /', 'HEAD /']);
  });

  it('skips the credential check for a scripted model but still checks that it answers', async () => {
    const model = await answeringServer();
    servers.push(model.server);
    const report = await preflight({
      config: configOf(codon('a')),
      env: bareEnv(),
      anthropicBaseUrl: model.url,
      scripted: true,
    });
    expect(report).toEqual({ credentials: [], endpoints: [new URL(model.url).host] });
    expect(model.requests).toHaveLength(1);
  });

  it('fails fast with RUNTIME_API_UNREACHABLE on a closed loopback port', async () => {
    const port = await closedPort();
    const started = Date.now();
    const error = await preflight({
      config: configOf(codon('a')),
      env: { ...bareEnv(), ANTHROPIC_API_KEY: 'sk-x' },
      anthropicBaseUrl: `http://127.0.0.1:${port}`,
    }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({
      code: 'RUNTIME_API_UNREACHABLE',
      details: { target: `127.0.0.1:${port}`, error: 'ECONNREFUSED', codons: ['a'] },
    });
    expect((error as Error).message).toMatch(/127\.0\.0\.1:\d+.*ECONNREFUSED.*--scripted-model/);
  });

  it('gives up after timeoutMs when the server accepts but never answers', async () => {
    const silent = createServer(() => {});
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const started = Date.now();
    await expect(
      preflight({
        config: configOf(codon('a')),
        env: { ...bareEnv(), ANTHROPIC_API_KEY: 'sk-x' },
        anthropicBaseUrl: `http://127.0.0.1:${port}`,
        timeoutMs: 200,
      }),
    ).rejects.toMatchObject({ code: 'RUNTIME_API_UNREACHABLE', details: { error: 'TIMEOUT' } });
    expect(Date.now() - started).toBeLessThan(1500);
    silent.closeAllConnections();
  });

  it('checks the public API through the proxy the agent would use', async () => {
    const port = await closedPort();
    const error = await preflight({
      config: configOf(codon('a')),
      // HANKWEAVE_X reaches the agent as X, so this is the agent's proxy.
      env: {
        ...bareEnv(),
        ANTHROPIC_API_KEY: 'sk-x',
        HANKWEAVE_HTTPS_PROXY: `http://127.0.0.1:${port}`,
      },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'RUNTIME_API_UNREACHABLE',
      details: {
        url: 'https://api.anthropic.com/',
        target: `127.0.0.1:${port}`,
        error: 'ECONNREFUSED',
      },
    });
    expect((error as Error).message).toContain(`through the proxy 127.0.0.1:${port}`);

    const proxy = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyPort = (proxy.address() as AddressInfo).port;
    try {
      const report = await preflight({
        config: configOf(codon('a')),
        env: {
          ...bareEnv(),
          ANTHROPIC_API_KEY: 'sk-x',
          HANKWEAVE_HTTPS_PROXY: `127.0.0.1:${proxyPort}`,
        },
      });
      expect(report.endpoints).toEqual([`127.0.0.1:${proxyPort}`]);
    } finally {
      proxy.close();
    }
  });

  it('refuses a base URL that is not an http(s) URL', async () => {
    await expect(
      preflight({
        config: configOf(codon('a')),
        env: { ...bareEnv(), ANTHROPIC_API_KEY: 'sk-x' },
        anthropicBaseUrl: 'localhost:8080',
      }),
    ).rejects.toMatchObject({ code: 'RUNTIME_API_UNREACHABLE', details: { error: 'INVALID_URL' } });
  });

  it('probes nothing for Bedrock codons, whose calls go to AWS', async () => {
    const report = await preflight({
      config: configOf(codon('a', { model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' })),
      env: { ...bareEnv(), CLAUDE_CODE_USE_BEDROCK: '1' },
    });
    expect(report).toEqual({ credentials: ['Amazon Bedrock'], endpoints: [] });
  });
});

describe('probeTcp()', () => {
  it('reports a host name that does not resolve, within the timeout', async () => {
    const result = await probeTcp('no-such-host.invalid', 443, 1500);
    expect(result).toMatchObject({ ok: false, target: 'no-such-host.invalid:443' });
    expect(['ENOTFOUND', 'EAI_AGAIN', 'TIMEOUT']).toContain(result.ok ? '' : result.code);
  });
});

describe('createRuntime() preflight', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir('preflight-runtime-');
    mkdirSync(join(dir.path, 'data'));
    writeFileSync(join(dir.path, 'data', 'x.txt'), 'x');
    mkdirSync(join(dir.path, 'claude-config'));
  });
  afterEach(async () => {
    await dir.cleanup();
  });
  const options = () => ({
    hank: hankOf(codon('a')),
    hankDir: dir.path,
    dataPath: join(dir.path, 'data'),
    executionBaseDir: join(dir.path, 'executions'),
    autostart: false,
    env: {
      PATH: process.env.PATH,
      HOME: dir.path,
      CLAUDE_CONFIG_DIR: join(dir.path, 'claude-config'),
    },
  });

  it('fails start() without credentials before any execution directory exists', async () => {
    const runtime = createRuntime(options());
    await expect(runtime.start()).rejects.toMatchObject({ code: 'RUNTIME_NO_CREDENTIALS' });
    expect(existsSync(join(dir.path, 'executions'))).toBe(false);
    expect(runtime.phase).toBe('closed');
    expect(await runtime.finished).toEqual({ exitCode: 1, reason: 'error' });
  });

  it('skips the preflight with preflight: false, and when a harness is passed', async () => {
    for (const extra of [{ preflight: false }, { harness: new FakeHarness() }]) {
      const runtime = createRuntime({ ...options(), ...extra, startNew: true });
      await runtime.start();
      expect(existsSync(runtime.executionDir)).toBe(true);
      await runtime.close();
    }
  });
});
