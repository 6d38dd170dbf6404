import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { type HankConfig, hankConfigSchema, selectHarness } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { findPiCredentials } from './pi-credentials.js';
import { preflight } from './preflight.js';

// The Pi part of the preflight: a codon whose model runs on Pi (reference §1.9) needs its
// provider's key or a base URL, and the server it will call must answer.

const codon = (id: string, model: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model,
  continuationMode: 'fresh',
  promptText: 'Hello',
  ...extra,
});
const configOf = (...codons: unknown[]): HankConfig =>
  hankConfigSchema.parse({ meta: { name: 'p', version: '1.0.0' }, hank: codons });
const bare = { PATH: process.env.PATH };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise((resolve) => server.close(() => resolve(undefined)));
});

/** A loopback HTTP server that answers every request (as the scripted model's `/v1` does). */
async function answeringServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404);
    res.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests };
}

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('findPiCredentials()', () => {
  const openai = selectHarness('gpt-5.2');
  it('finds the provider key, also as HANKWEAVE_<KEY> or in the codon env', () => {
    expect(findPiCredentials(openai, { OPENAI_API_KEY: 'k' }, undefined, undefined)).toEqual({
      found: true,
      source: 'OPENAI_API_KEY',
      baseUrl: 'https://api.openai.com',
    });
    expect(
      findPiCredentials(openai, { HANKWEAVE_OPENAI_API_KEY: 'k' }, undefined, undefined),
    ).toMatchObject({ found: true, source: 'OPENAI_API_KEY' });
    expect(findPiCredentials(openai, {}, { OPENAI_API_KEY: 'k' }, undefined)).toMatchObject({
      found: true,
    });
  });

  it('takes a base URL instead of a key: piBaseUrl first, else <PROVIDER>_BASE_URL', () => {
    expect(findPiCredentials(openai, {}, undefined, 'http://127.0.0.1:9/v1')).toEqual({
      found: true,
      source: 'piBaseUrl',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    expect(
      findPiCredentials(
        openai,
        { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
        undefined,
        undefined,
      ),
    ).toEqual({ found: true, source: 'OPENAI_BASE_URL', baseUrl: 'http://127.0.0.1:11434/v1' });
  });

  it('names the keys and the base-URL variable when nothing is set', () => {
    expect(
      findPiCredentials(selectHarness('gemini-3-pro-preview'), {}, undefined, undefined),
    ).toEqual({ found: false, keys: ['GEMINI_API_KEY'], urlVariable: 'GOOGLE_BASE_URL' });
  });

  it("looks for Azure's key and endpoint under the names Pi reads", () => {
    const azure = selectHarness('pi/azure-openai-responses/gpt-5.2');
    expect(findPiCredentials(azure, {}, undefined, undefined)).toEqual({
      found: false,
      keys: ['AZURE_OPENAI_API_KEY'],
      urlVariable: 'AZURE_OPENAI_BASE_URL',
    });
    expect(
      findPiCredentials(
        azure,
        { AZURE_OPENAI_API_KEY: 'k', AZURE_OPENAI_BASE_URL: 'https://team.openai.azure.com' },
        undefined,
        undefined,
      ),
    ).toEqual({
      found: true,
      source: 'AZURE_OPENAI_API_KEY',
      baseUrl: 'https://team.openai.azure.com',
    });
  });

  it('needs nothing for a provider without a key of its own (a local server)', () => {
    expect(
      findPiCredentials(selectHarness('pi/ollama/qwen3:8b'), {}, undefined, undefined),
    ).toMatchObject({ found: true });
  });
});

describe('preflight() with Pi codons', () => {
  it('refuses a Pi codon without its key, naming the key and --scripted-model', async () => {
    const failure = preflight({
      config: configOf(
        codon('a', 'sonnet'),
        codon('b', 'gpt-5.2'),
        codon('c', 'gemini-3-pro-preview'),
      ),
      env: { ...bare, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: (await answeringServer()).url },
    });
    await expect(failure).rejects.toMatchObject({
      code: 'RUNTIME_NO_CREDENTIALS',
      details: { codons: ['b', 'c'], keys: ['OPENAI_API_KEY', 'GEMINI_API_KEY'] },
    });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('OPENAI_API_KEY');
    expect(message).toContain('GEMINI_API_KEY');
    expect(message).toContain('--scripted-model');
  });

  it('probes the base URL a Pi codon will call, and passes when it answers', async () => {
    const server = await answeringServer();
    const report = await preflight({
      config: configOf(codon('b', 'gpt-5.2')),
      env: bare,
      piBaseUrl: `${server.url}/v1`,
    });
    expect(server.requests).toEqual(['HEAD /v1']);
    expect(report.credentials).toEqual(['piBaseUrl']);
  });

  it('refuses an unreachable local server named by <PROVIDER>_BASE_URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    await expect(
      preflight({
        config: configOf(codon('b', 'gpt-5.2', { env: { OPENAI_BASE_URL: url } })),
        env: bare,
      }),
    ).rejects.toMatchObject({
      code: 'RUNTIME_API_UNREACHABLE',
      message: expect.stringContaining('openai API'),
      details: { error: 'ECONNREFUSED', codons: ['b'] },
    });
  });

  it('sends a forced pi/anthropic model through the Pi check, not Claude Code', async () => {
    await expect(
      preflight({ config: configOf(codon('p', 'pi/anthropic/claude-sonnet-4-5')), env: bare }),
    ).rejects.toMatchObject({
      code: 'RUNTIME_NO_CREDENTIALS',
      details: { codons: ['p'], keys: ['ANTHROPIC_API_KEY'] },
    });
  });
});
