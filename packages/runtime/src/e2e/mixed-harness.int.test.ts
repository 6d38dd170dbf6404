import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentLogParser } from '@hankweave/harness';
import { openJournalReadOnly } from '@hankweave/journal';
import { defaultModelCatalog, type HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shadowGit } from '../../test/git-oracle.js';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// One hank, two agents, one scripted model: a Claude codon (`sonnet`, the real Claude Code on the
// Messages API), then a Pi codon (`gpt-5.2`, the real Pi on Chat Completions at `/v1`), then a
// Pi codon that continues the Pi session. Nothing is faked below the runtime's own options.

const PI_USAGE = { inputTokens: 2000, outputTokens: 100, cacheReadInputTokens: 500 };
const script = {
  conversations: [
    {
      match: { marker: 'CLAUDE_TASK' },
      turns: [
        {
          content: [{ write: { path: 'claude.txt', content: 'written by Claude Code\n' } }],
          usage: { inputTokens: 1000, outputTokens: 50 },
        },
        { content: [{ text: 'Wrote claude.txt.' }], usage: { inputTokens: 1100, outputTokens: 8 } },
      ],
    },
    {
      match: { marker: 'PI_TASK' },
      turns: [
        {
          content: [{ write: { path: 'pi.txt', content: 'written by Pi\n' } }],
          usage: PI_USAGE,
        },
        { content: [{ text: 'Wrote pi.txt.' }], usage: PI_USAGE },
      ],
    },
    {
      match: { marker: 'PI_AGAIN' },
      turns: [
        {
          content: [{ bash: { command: 'cat pi.txt > pi-again.txt && echo COPIED' } }],
          usage: PI_USAGE,
        },
        {
          choose: [
            {
              when: { lastToolResultContains: 'COPIED' },
              content: [{ text: 'Copied.' }],
              usage: PI_USAGE,
            },
            { content: [{ text: 'The copy failed.' }], usage: PI_USAGE },
          ],
        },
      ],
    },
  ],
};
const codon = (id: string, model: string, mode: string, prompt: string) => ({
  id,
  name: id,
  model,
  continuationMode: mode,
  promptText: prompt,
  checkpointedFiles: ['*.txt'],
});
const hank = {
  meta: { name: 'mixed', version: '1.0.0' },
  hank: [
    codon('claude-writes', 'sonnet', 'fresh', 'CLAUDE_TASK: write claude.txt.'),
    codon('pi-writes', 'gpt-5.2', 'fresh', 'PI_TASK: write pi.txt.'),
    codon('pi-continues', 'gpt-5.2', 'continue-previous', 'PI_AGAIN: copy pi.txt.'),
  ],
};

const ofType = <T extends HankweaveEvent['type']>(events: HankweaveEvent[], type: T) =>
  events.filter((event): event is Extract<HankweaveEvent, { type: T }> => event.type === type);

describe('a hank mixing Claude Code and Pi codons', () => {
  let world: TestWorld;
  let executionDir: string;
  let events: HankweaveEvent[];
  let exitCode: number;

  beforeAll(async () => {
    world = await makeWorld({ hank, script });
    const run = runtimeFor(world, { piBaseUrl: `${world.model.url}/v1` });
    events = run.events;
    await run.runtime.start();
    executionDir = run.runtime.executionDir;
    exitCode = (await run.runtime.finished).exitCode;
  }, 180_000);
  afterAll(() => world?.close());

  it('runs each codon on its own agent against the one scripted model', () => {
    const failures = world.model.requests.filter((request) => request.error);
    expect(failures.map((request) => request.error?.message)).toEqual([]);
    expect(exitCode).toBe(0);
    const completed = ofType(events, 'codon.completed');
    expect(completed.map((event) => [event.data.codonId, event.data.success])).toEqual([
      ['claude-writes', true],
      ['pi-writes', true],
      ['pi-continues', true],
    ]);
    const kinds = new Set(world.model.requests.map((request) => request.kind));
    expect(kinds).toContain('messages');
    // gpt-5.2 is an OpenAI model: Pi speaks its own family, the Responses API, to the base URL.
    expect(kinds).toContain('responses');
  });

  it('keeps every agent-written file in the final checkpoint', () => {
    const agentRoot = join(executionDir, 'agentRoot');
    expect(readFileSync(join(agentRoot, 'claude.txt'), 'utf8')).toBe('written by Claude Code\n');
    expect(readFileSync(join(agentRoot, 'pi.txt'), 'utf8')).toBe('written by Pi\n');
    const last = shadowGit(executionDir, [
      'log',
      '--all',
      '--format=%H',
      '--grep=completed:pi-continues',
    ]).trim();
    expect(
      shadowGit(executionDir, ['ls-tree', '-r', '--name-only', last]).trim().split('\n'),
    ).toEqual(['claude.txt', 'pi-again.txt', 'pi.txt']);
  });

  it("prices each codon from the catalog, the Pi codon at gpt-5.2's price", () => {
    const costs = Object.fromEntries(
      ofType(events, 'codon.completed').map((event) => [event.data.codonId, event.data.cost]),
    );
    expect(costs['claude-writes']).toBeGreaterThan(0);
    // Two turns of PI_USAGE each; Pi reports cache reads apart from the input, as the script says.
    const turn = defaultModelCatalog.priceUsage('gpt-5.2', {
      inputTokens: PI_USAGE.inputTokens,
      outputTokens: PI_USAGE.outputTokens,
      cacheCreationTokens: 0,
      cacheReadTokens: PI_USAGE.cacheReadInputTokens,
    });
    expect(turn.known).toBe(true);
    expect(costs['pi-writes']).toBeCloseTo(2 * turn.cost, 9);
    expect(costs['pi-continues']).toBeCloseTo(2 * turn.cost, 9);
  });

  it('writes a Pi agent log the parser reads, and journals its events', async () => {
    const runs = join(executionDir, '.hankweave', 'runs');
    const [runId] = readdirSync(runs);
    const log = readFileSync(join(runs, runId as string, 'pi-writes-claude.log'), 'utf8');
    const parser = new AgentLogParser({ codonId: 'pi-writes', model: 'gpt-5.2' });
    const parsed = log
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => parser.push(line));
    parsed.push(...parser.finish());
    expect(parser.state).toMatchObject({ successResult: true, unparsedLineCount: 0 });
    expect(parsed.map((event) => event.type)).toContain('tool.result');

    const journal = await openJournalReadOnly(join(executionDir, '.hankweave/events/events.jsonl'));
    const journaled: HankweaveEvent[] = [];
    for await (const event of journal.getAllEvents()) journaled.push(event as HankweaveEvent);
    await journal.close();
    const piActions = ofType(journaled, 'assistant.action').filter(
      (event) => event.data.codonId === 'pi-writes',
    );
    expect(piActions.length).toBeGreaterThan(0);
    expect(
      ofType(journaled, 'token.usage').some((event) => event.data.codonId === 'pi-writes'),
    ).toBe(true);
  });

  it('resumes the Pi session of the previous codon from the execution-level agent dir', () => {
    const sessions = readdirSync(join(executionDir, '.hankweave', 'pi', 'sessions'), {
      recursive: true,
    });
    expect(sessions.length).toBeGreaterThan(0);
    const started = ofType(events, 'codon.started');
    expect(started.map((event) => event.data.codonId)).toContain('pi-continues');
    const pi = (id: string) =>
      world.model.requests.filter(
        (request) => request.kind === 'responses' && JSON.stringify(request.body).includes(id),
      );
    // The continued session's requests still carry the first Pi codon's prompt.
    expect(
      pi('PI_AGAIN').every((request) => JSON.stringify(request.body).includes('PI_TASK')),
    ).toBe(true);
    expect(pi('PI_AGAIN').length).toBeGreaterThan(0);
  });
});
