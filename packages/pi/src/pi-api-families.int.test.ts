import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { type RequestKind, type ScriptInput, startScriptedModel } from '@hankweave/scripted-model';
import { defaultModelCatalog } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { createPiHarness, type PiHarnessOptions } from './index.js';

// One case per API family Pi speaks, on the real Pi CLI against the scripted model over loopback:
// a turn that writes a file through Pi's `write` tool, then a final text. Each asserts the file,
// the outcome, the usage and cost of the translated agent log, and the API the requests used.
// The base URL is given the way the runtime's dry run gives it (`<url>/v1`), except where a case
// shows a family's own convention.

const TURN_0 = { inputTokens: 1000, outputTokens: 50, cacheReadInputTokens: 200 };
const TURN_1 = { inputTokens: 1100, outputTokens: 7 };

function writeScript(marker: string): ScriptInput {
  return {
    conversations: [
      {
        match: { marker },
        turns: [
          {
            content: [
              { thinking: 'Write the file, then say so.' },
              { write: { path: 'out.txt', content: `${marker}\n` } },
            ],
            usage: TURN_0,
          },
          { content: [{ text: `Wrote out.txt for ${marker}.` }], usage: TURN_1 },
        ],
      },
    ],
  };
}

async function sandbox(prefix: string) {
  const dir = await makeTempDir(`hw-pi-${prefix}-`);
  const home = join(dir.path, 'home');
  const cwd = join(dir.path, 'work');
  await Promise.all([mkdir(home), mkdir(cwd)]);
  return { dir, home, cwd, logPath: join(dir.path, 'runs', 'run-1', 'codon#0-claude.log') };
}

interface FamilyCase {
  family: string;
  model: string;
  kind: RequestKind;
  /** The path Pi's client requested: the base URL's family convention at work. */
  path: string;
  harness?: Pick<PiHarnessOptions, 'api'>;
  /** The family has no cache counts: cached tokens arrive as plain input (Mistral). */
  noCacheCounts?: true;
  /** The base URL as the codon's env names it, instead of the harness's `baseUrl` option. */
  env?: (url: string) => Record<string, string>;
  /** More of the person's environment: settings the harness's `baseUrl` must win over. */
  baseEnv?: Record<string, string>;
}

const CASES: FamilyCase[] = [
  {
    // A server without the Responses API (vLLM, Ollama) behind OPENAI_BASE_URL: `api` forces it.
    family: 'openai-completions',
    model: 'gpt-5.2',
    kind: 'chat-completions',
    path: '/v1/chat/completions',
    harness: { api: 'openai-completions' },
  },
  { family: 'openai-responses', model: 'gpt-5.2', kind: 'responses', path: '/v1/responses' },
  {
    // Azure's client is OpenAI's with an api-key header and an api-version query. Pi prefers
    // the person's Azure endpoint to models.json: the dry run's base URL must still win.
    family: 'azure-openai-responses',
    model: 'pi/azure-openai-responses/gpt-5.2',
    kind: 'responses',
    path: '/v1/responses?api-version=v1',
    baseEnv: {
      AZURE_OPENAI_BASE_URL: 'http://127.0.0.1:9/not-this-one',
      AZURE_OPENAI_RESOURCE_NAME: 'not-this-either',
    },
  },
  {
    family: 'google-generative-ai',
    model: 'gemini-3-pro-preview',
    kind: 'generate-content',
    path: '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    env: (url) => ({ GOOGLE_BASE_URL: `${url}/v1beta` }),
  },
  {
    // `/v1` is dropped from the base: the Anthropic SDK appends /v1/messages itself.
    family: 'anthropic-messages',
    model: 'pi/anthropic/claude-sonnet-4-5',
    kind: 'messages',
    path: '/v1/messages',
  },
  {
    // Mistral's SDK also appends /v1 itself; its stream is Chat Completions' shape.
    family: 'mistral-conversations',
    model: 'pi/mistral/mistral-large-latest',
    kind: 'chat-completions',
    path: '/v1/chat/completions',
    noCacheCounts: true,
  },
];

describe.concurrent('Pi on each API family', () => {
  it.each(CASES)('writes a file and answers on $family ($model)', async (entry) => {
    const { dir, home, cwd, logPath } = await sandbox(entry.family);
    const marker = `FAMILY_${entry.family.toUpperCase().replaceAll('-', '_')}`;
    await using model = await startScriptedModel({ script: writeScript(marker) });
    try {
      const harness = createPiHarness({
        retries: false,
        baseEnv: { PATH: process.env.PATH, HOME: home, ...entry.baseEnv },
        ...(entry.env === undefined && { baseUrl: `${model.url}/v1` }),
        ...entry.harness,
      });
      const session = await harness.start({
        codonId: 'codon#0',
        runId: 'run-1',
        model: entry.model,
        prompt: `Write out.txt. ${marker}`,
        cwd,
        logPath,
        idleTimeoutMs: 30_000,
        ...(entry.env !== undefined && { env: entry.env(model.url) }),
      });
      const outcome = await session.outcome;

      expect(model.requests.map((request) => request.error)).toEqual([undefined, undefined]);
      expect(await readFile(join(cwd, 'out.txt'), 'utf8')).toBe(`${marker}\n`);
      expect(outcome).toMatchObject({ exitCode: 0, resultText: `Wrote out.txt for ${marker}.` });
      expect(outcome.failureReason).toBeUndefined();
      expect(model.requests.map((request) => [request.kind, request.path])).toEqual([
        [entry.kind, entry.path],
        [entry.kind, entry.path],
      ]);

      // The agent log carries the scripted usage per message, and the catalog's price for it.
      const records = (await readFile(logPath, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const usages = records
        .filter((record) => record.type === 'assistant')
        .map((record) => (record.message as { usage: unknown }).usage);
      // Without cache counts, the 200 cached tokens of the first turn are plain input.
      const cached = entry.noCacheCounts ? 0 : 200;
      expect(usages).toEqual([
        {
          input_tokens: 1200 - cached,
          output_tokens: 50,
          cache_read_input_tokens: cached,
          cache_creation_input_tokens: 0,
        },
        {
          input_tokens: 1100,
          output_tokens: 7,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      ]);
      const tokens = {
        inputTokens: 2300 - cached,
        outputTokens: 57,
        cacheReadTokens: cached,
        cacheCreationTokens: 0,
      };
      expect(outcome.finalTokens).toEqual(tokens);
      // The catalog's price: every family's model here is in it (Mistral's from Pi's registry).
      const price = defaultModelCatalog.priceUsage(entry.model, tokens);
      expect(price.known).toBe(true);
      expect(outcome.finalCost).toBeCloseTo(price.cost, 9);
      expect(records.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
    } finally {
      await dir.cleanup();
    }
  });

  it('classifies a 429 of the Gemini API as a retriable rate limit', async () => {
    const { dir, home, cwd, logPath } = await sandbox('rate-limit');
    const script: ScriptInput = {
      conversations: [
        { turns: [{ fail: { kind: 'rate-limit', retryAfterSeconds: 3 }, content: [] }] },
      ],
    };
    await using model = await startScriptedModel({ script });
    try {
      const harness = createPiHarness({
        retries: false,
        baseUrl: `${model.url}/v1`,
        baseEnv: { PATH: process.env.PATH, HOME: home },
      });
      const session = await harness.start({
        codonId: 'codon#0',
        runId: 'run-1',
        model: 'gemini-3-pro-preview',
        prompt: 'Do the task.',
        cwd,
        logPath,
        idleTimeoutMs: 30_000,
      });
      const outcome = await session.outcome;
      // retries: false turns Pi's own retries off: one request, and the runtime decides.
      expect(model.requests.map((request) => [request.kind, request.match?.served])).toEqual([
        ['generate-content', 'failure'],
      ]);
      expect(outcome.exitCode).toBe(1);
      expect(outcome.failureReason).toMatchObject({
        type: 'rate-limit',
        retriable: true,
        retryAfterMs: 3000,
      });
      expect(outcome.errorResultText).toContain('RESOURCE_EXHAUSTED');
    } finally {
      await dir.cleanup();
    }
  });
});
