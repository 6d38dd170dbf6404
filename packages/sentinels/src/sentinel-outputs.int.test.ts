import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CodonSentinelEntry } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { action, inline, setup } from '../test/helpers.js';

const EMPTY = {
  conversations: [{ match: { marker: 'UNUSED' }, turns: [{ content: [{ text: '-' }] }] }],
};
const entries = (...configs: unknown[]) =>
  configs.map((sentinelConfig) => ({ sentinelConfig })) as unknown as CodonSentinelEntry[];
const load = (t: Awaited<ReturnType<typeof setup>>, list: CodonSentinelEntry[]) =>
  t.manager.loadForCodon({ codonId: 'review#0', codonName: 'Review', entries: list });

const findingSchema = {
  type: 'object',
  properties: { severity: { enum: ['low', 'high'] }, note: { type: 'string' } },
  required: ['severity', 'note'],
  additionalProperties: false,
};

const reviewer = (structuredOutput: Record<string, unknown>) =>
  inline({ id: 'reviewer', name: 'Reviewer', userPromptText: 'REVIEW now', structuredOutput });

const answering = (object: unknown) => ({
  conversations: [{ match: { marker: 'REVIEW' }, turns: [{ content: [{ object }] }] }],
});

describe('structured output', () => {
  it.each([
    [
      'object',
      { output: 'object', schema: findingSchema },
      { severity: 'high', note: 'x' },
      { severity: 'high', note: 'x' },
    ],
    [
      'array',
      { output: 'array', schema: { type: 'array', items: findingSchema } },
      { elements: [{ severity: 'low', note: 'y' }] },
      [{ severity: 'low', note: 'y' }],
    ],
    ['enum', { output: 'enum', enumValues: ['pass', 'fail'] }, { result: 'fail' }, 'fail'],
  ])(
    'writes a valid %s to NDJSON, lastValueFile and sentinel.output',
    async (_kind, structured, answer, expected) => {
      await using t = await setup(answering(answer));
      const { failed } = await load(t, [
        {
          sentinelConfig: reviewer(structured),
          settings: { outputPaths: { lastValueFile: 'last.json' } },
        } as unknown as CodonSentinelEntry,
      ]);
      expect(failed).toEqual([]);
      t.manager.observe(action('done'));
      await t.manager.drain();
      expect(t.of('sentinel.output')).toMatchObject([
        { outputType: 'structured', content: expected },
      ]);
      const dir = join(t.hankweaveDir, 'sentinels', 'outputs', 'reviewer');
      const log = (await readdir(dir)).find((f) => f.endsWith('.ndjson')) as string;
      const line = JSON.parse((await readFile(join(dir, log), 'utf8')).trim());
      expect(line).toMatchObject({ sentinelId: 'reviewer', triggerNumber: 1, output: expected });
      expect(JSON.parse(await readFile(join(dir, 'last.json'), 'utf8'))).toEqual(expected);
    },
  );

  it('counts an answer that breaks the schema as a failed call', async () => {
    await using t = await setup(answering({ severity: 'urgent', note: 1 }));
    await load(t, entries(reviewer({ output: 'object', schema: findingSchema })));
    t.manager.observe(action('done'));
    const [state] = await t.manager.drain();
    expect(state).toMatchObject({ llmCallCount: 1, failedLLMCalls: 1, status: 'active' });
    expect(t.of('sentinel.error')).toMatchObject([
      { errorType: 'llm-call-failed', retriable: true, consecutiveFailureCount: 1 },
    ]);
    expect(t.of('sentinel.output')).toEqual([]);
  });

  it('reads a .json schemaFile relative to the sentinel file', async () => {
    await using t = await setup(answering({ severity: 'low', note: 'ok' }));
    await writeFile(join(t.hankDir, 'finding.schema.json'), JSON.stringify(findingSchema));
    await writeFile(join(t.hankDir, 'prompt.eta'), 'REVIEW <%= it.events.length %>');
    const config = { ...reviewer({ output: 'object', schemaFile: 'finding.schema.json' }) };
    delete (config as Record<string, unknown>).userPromptText;
    await writeFile(
      join(t.hankDir, 'reviewer.json'),
      JSON.stringify({ ...config, userPromptFile: 'prompt.eta' }),
    );
    const { failed } = await load(t, entries('reviewer.json'));
    expect(failed).toEqual([]);
    expect(t.of('sentinel.loaded')[0]).toMatchObject({
      source: 'file',
      sourcePath: 'reviewer.json',
    });
    t.manager.observe(action('done'));
    await t.manager.drain();
    expect(t.of('sentinel.output')[0]?.content).toEqual({ severity: 'low', note: 'ok' });
  });
});

describe('failures', () => {
  it('unloads after maxConsecutiveFailures failed calls', async () => {
    await using t = await setup({
      conversations: [
        { match: { marker: 'NARRATE' }, turns: [{ fail: { kind: 'server-error' }, content: [] }] },
      ],
    });
    await load(t, entries(inline({ errorHandling: { maxConsecutiveFailures: 2 } })));
    for (let n = 0; n < 4; n++) t.manager.observe(action(`s${n}`, n));
    const [state] = await t.manager.drain();
    expect(state).toMatchObject({
      status: 'unloaded',
      unloadReason: 'consecutive-failures',
      llmCallCount: 2,
      failedLLMCalls: 2,
    });
    expect(t.of('sentinel.error').map((e) => e.consecutiveFailureCount)).toEqual([1, 2]);
    expect(t.of('sentinel.unloaded')).toMatchObject([
      { reason: 'consecutive-failures', llmCallCount: 2 },
    ]);
    expect(t.manager.loadedCount()).toBe(0);
  });

  it('unloads on a template syntax error with a clear reason', async () => {
    await using t = await setup(EMPTY);
    await load(t, entries(inline({ userPromptText: 'NARRATE <%= it.events.map( %>' })));
    t.manager.observe(action('x'));
    const [state] = await t.manager.drain();
    expect(state).toMatchObject({ status: 'unloaded', unloadReason: 'fatal-error' });
    expect(t.of('sentinel.error')[0]).toMatchObject({
      errorType: 'template-render-failed',
      retriable: false,
    });
    expect(String(t.of('sentinel.error')[0]?.message)).toContain('syntax error');
    expect(t.of('sentinel.unloaded')).toMatchObject([
      { reason: 'fatal-error', errorType: 'template' },
    ]);
    expect(t.model.requests).toHaveLength(0);
  });
});

describe('loading', () => {
  it('rejects condition paths that are not in the event data, with a clear error', async () => {
    await using t = await setup(EMPTY);
    const trigger = {
      type: 'event',
      on: ['codon.completed'],
      conditions: [{ path: 'exitStatus.kind', operator: 'equals', value: 'error' }],
    };
    const { failed, states } = await t.manager.loadForCodon({
      codonId: 'c',
      codonName: 'C',
      entries: [
        { sentinelConfig: inline({ trigger }), settings: { failCodonIfNotLoaded: true } },
      ] as unknown as CodonSentinelEntry[],
    });
    expect(states).toEqual([]);
    expect(failed).toEqual([
      {
        ref: 'inline:narrator',
        fatal: true,
        error: expect.stringContaining(
          '"exitStatus.kind" is not a field of the data of codon.completed',
        ),
      },
    ]);
  });

  it('reports unreadable files, duplicate ids and missing keys without throwing', async () => {
    await using t = await setup(EMPTY, { env: {} });
    const { failed } = await load(t, entries('missing.json', inline(), inline()));
    expect(failed.map((f) => [f.ref, f.fatal])).toEqual([
      ['missing.json', false],
      ['inline:narrator', false],
      ['inline:narrator', false],
    ]);
    expect(failed[1]?.error).toContain('ANTHROPIC_API_KEY');
  });
});
