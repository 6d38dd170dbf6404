import { readFileSync } from 'node:fs';
import type { EventEnvelope } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { GEN_AI, HANKWEAVE } from './attributes.js';
import { mapEventsToSpans, type SpanRecord } from './span-mapper.js';

const fixture = (name: string) => new URL(`../test/fixtures/hello-hank/${name}`, import.meta.url);
/** The journal and state of a real dry run of examples/hello-hank (the CLI, scripted model). */
const journal: EventEnvelope[] = readFileSync(fixture('events.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const state = JSON.parse(readFileSync(fixture('state.json'), 'utf8'));

const childrenOf = (spans: SpanRecord[], parent: SpanRecord) =>
  spans.filter((span) => span.parentId === parent.id);

describe('mapEventsToSpans on a dry run of hello-hank', () => {
  const spans = mapEventsToSpans(journal, {
    runAttributes: { [HANKWEAVE.hankName]: 'hello-hank' },
  });
  const byName = (prefix: string) => spans.filter((span) => span.name.startsWith(prefix));
  const [run] = byName('run');

  it('has one run span at the root, with the run codons under it in order', () => {
    expect(byName('run')).toHaveLength(1);
    expect(run?.parentId).toBeUndefined();
    expect(run?.attributes[HANKWEAVE.runId]).toBe(state.runs[0].runId);
    expect(run?.attributes[HANKWEAVE.hankName]).toBe('hello-hank');
    expect(run?.status.code).toBe('ok');
    const codons = childrenOf(spans, run as SpanRecord).filter((span) =>
      span.name.startsWith('codon '),
    );
    expect(codons.map((span) => span.attributes[HANKWEAVE.codonId])).toEqual(
      state.runs[0].codons.map((codon: { codonId: string }) => codon.codonId),
    );
    expect(codons.every((span) => span.attributes[HANKWEAVE.codonAttempt] === 1)).toBe(true);
    const polish = codons.find((span) => span.attributes[HANKWEAVE.codonId] === 'polish-pass#1');
    expect(polish?.attributes[HANKWEAVE.loopIteration]).toBe(1);
    expect(polish?.attributes[HANKWEAVE.loopId]).toBeTypeOf('string');
  });

  it('gives each codon span the cost and tokens of state.json, and the run their sum', () => {
    let cost = 0;
    for (const codon of state.runs[0].codons) {
      const span = spans.find(
        (candidate) =>
          candidate.name.startsWith('codon ') &&
          candidate.attributes[HANKWEAVE.codonId] === codon.codonId,
      );
      expect(span?.attributes[HANKWEAVE.costUsd]).toBeCloseTo(codon.finalCost, 10);
      const tokens = codon.finalTokens;
      expect(span?.attributes[GEN_AI.outputTokens]).toBe(tokens.outputTokens);
      expect(span?.attributes[GEN_AI.cacheReadInputTokens]).toBe(tokens.cacheReadTokens);
      expect(span?.attributes[HANKWEAVE.uncachedInputTokens]).toBe(tokens.inputTokens);
      expect(span?.attributes[GEN_AI.inputTokens]).toBe(
        tokens.inputTokens + tokens.cacheReadTokens + tokens.cacheCreationTokens,
      );
      expect(span?.attributes[HANKWEAVE.codonStatus]).toBe('completed');
      expect(span?.status.code).toBe('ok');
      cost += codon.finalCost;
    }
    expect(run?.attributes[HANKWEAVE.costUsd]).toBeCloseTo(cost, 10);
  });

  it('has a chat span per model request with GenAI attributes, summing to the codon', () => {
    for (const codon of byName('codon ')) {
      const turns = childrenOf(spans, codon).filter((span) => span.name.startsWith('chat '));
      expect(turns.length).toBeGreaterThan(0);
      for (const turn of turns) {
        expect(turn.kind).toBe('client');
        expect(turn.attributes[GEN_AI.operationName]).toBe('chat');
        expect(turn.attributes[GEN_AI.providerName]).toBe('anthropic');
        expect(turn.attributes[GEN_AI.requestModel]).toBe('claude-sonnet-5-5');
        expect(turn.attributes[GEN_AI.finishReasons]).toEqual(expect.any(Array));
        expect(turn.startMs).toBeLessThanOrEqual(turn.endMs as number);
        expect(turn.startMs).toBeGreaterThanOrEqual(codon.startMs);
      }
      const sum = turns.reduce(
        (total, turn) => total + (turn.attributes[HANKWEAVE.costUsd] as number),
        0,
      );
      const reconciliation = (codon.attributes[HANKWEAVE.reconciliationCostUsd] as number) ?? 0;
      expect(sum + reconciliation).toBeCloseTo(codon.attributes[HANKWEAVE.costUsd] as number, 10);
    }
  });

  it('has tool, rig and checkpoint spans under the codons', () => {
    const tools = byName('execute_tool ');
    const toolResults = journal.filter((event) => event.type === 'tool.result');
    expect(tools).toHaveLength(toolResults.length);
    const bash = tools.find((span) => span.attributes[GEN_AI.toolName] === 'Bash');
    expect(bash?.attributes[GEN_AI.operationName]).toBe('execute_tool');
    expect(bash?.attributes[HANKWEAVE.toolExecutionMs]).toBeGreaterThan(0);
    expect(bash?.status.code).toBe('unset');
    const observe = byName('codon observe')[0] as SpanRecord;
    expect(childrenOf(spans, observe).map((span) => span.name)).toEqual(
      expect.arrayContaining(['rig setup', 'checkpoint rig-setup', 'checkpoint completed']),
    );
    // Every checkpoint of state.json, once: the rig-setup one and each codon's completion.
    expect(byName('checkpoint ')).toHaveLength(5);
    const rig = byName('rig setup')[0];
    expect(rig?.attributes[HANKWEAVE.rigOutputLines]).toBeGreaterThan(0);
    expect(rig?.events).toEqual([]);
  });

  it('ends every span, children inside the run and no later than their parent ends', () => {
    const byId = new Map(spans.map((span) => [span.id, span]));
    for (const span of spans) {
      expect(span.endMs).toBeTypeOf('number');
      expect(span.attributes[HANKWEAVE.incomplete]).toBeUndefined();
      const parent = span.parentId !== undefined ? byId.get(span.parentId) : undefined;
      if (parent) expect(span.startMs).toBeGreaterThanOrEqual(parent.startMs);
    }
  });

  it('keeps prompts, answers and tool payloads out unless content capture is on', () => {
    const text = JSON.stringify(spans);
    expect(text).not.toContain('cities.csv');
    expect(text).not.toContain(GEN_AI.toolCallArguments);
    const captured = mapEventsToSpans(journal, { captureContent: true });
    const bash = captured.find((span) => span.attributes[GEN_AI.toolName] === 'Bash');
    expect(bash?.attributes[GEN_AI.toolCallArguments]).toContain('ls read_only_data_source');
    expect(bash?.attributes[GEN_AI.toolCallResult]).toContain('cities.csv');
    const turn = captured.find((span) => span.attributes[GEN_AI.outputMessages] !== undefined);
    expect(JSON.parse(turn?.attributes[GEN_AI.outputMessages] as string)[0].role).toBe('assistant');
    expect(captured.find((span) => span.name === 'rig setup')?.events.length).toBeGreaterThan(0);
  });
});

// Events written by hand for what the example does not do: failures, sentinels, rollbacks.
let clock = Date.parse('2026-01-01T00:00:00.000Z');
const at = () => {
  clock += 100;
  return new Date(clock).toISOString();
};
let ids = 0;
const event = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  id: `evt_${++ids}`,
  type,
  timestamp: at(),
  data,
});
const transition = (type: string, data: Record<string, unknown>) =>
  event('state.transition', { transitionType: type, transition: { type, data } });

describe('mapEventsToSpans on failures, sentinels, rollbacks and cut journals', () => {
  it('maps a failed attempt, its retry, a tool error and a sentinel call', () => {
    const events = [
      transition('RunStarted', { runId: 'r1', startTime: at(), gitBranch: 'run-r1' }),
      transition('CodonStarted', { runId: 'r1', codonId: 'build', startTime: at() }),
      event('sentinel.loaded', { sentinelId: 'watch', codonId: 'build', model: 'haiku' }),
      transition('CodonTransitioned', {
        runId: 'r1',
        codonId: 'build',
        from: 'starting',
        to: 'running',
        at: at(),
      }),
      event('token.usage', {
        codonId: 'build',
        inputTokens: 10,
        outputTokens: 5,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        totalCost: 0.01,
        modelId: 'claude-haiku-4-5',
      }),
      event('assistant.action', {
        codonId: 'build',
        action: 'tool_use',
        content: '',
        toolName: 'Bash',
        toolUseId: 't1',
        toolInput: { command: 'make secret' },
      }),
      event('sentinel.triggered', {
        sentinelId: 'watch',
        codonId: 'build',
        triggerNumber: 1,
        strategy: 'immediate',
        eventCount: 1,
        queueSize: 0,
      }),
      event('tool.result', {
        codonId: 'build',
        toolUseId: 't1',
        toolName: 'Bash',
        result: 'boom',
        truncated: false,
        originalLength: 4,
        executionTimeMs: 50,
        isError: true,
      }),
      event('sentinel.output', {
        sentinelId: 'watch',
        codonId: 'build',
        triggerNumber: 1,
        outputType: 'text',
        content: 'looks bad',
        cost: 0.002,
        tokens: { input: 100, output: 20 },
        eventCount: 2,
      }),
      transition('CodonTransitioned', {
        runId: 'r1',
        codonId: 'build',
        from: 'running',
        to: 'failed',
        at: at(),
        metadata: {
          failedDuring: 'running',
          exitCode: 1,
          failureReason: { type: 'agent_error', retriable: true, message: 'exit 1' },
        },
      }),
      event('codon.completed', {
        codonId: 'build',
        success: false,
        cost: 0.01,
        duration: 700,
        exitStatus: { type: 'error', code: 1 },
        failureReason: { type: 'agent_error', retriable: true },
      }),
      transition('CodonStarted', {
        runId: 'r1',
        codonId: 'build',
        startTime: at(),
        retryAttempt: 2,
      }),
      transition('CodonTransitioned', {
        runId: 'r1',
        codonId: 'build',
        from: 'starting',
        to: 'completed',
        at: at(),
      }),
      event('codon.completed', {
        codonId: 'build',
        success: true,
        cost: 0,
        duration: 100,
        exitStatus: { type: 'success' },
      }),
      transition('RunFailed', { runId: 'r1', endTime: at(), reason: 'a codon failed' }),
    ];
    const spans = mapEventsToSpans(events);
    const attempts = spans.filter((span) => span.name === 'codon build');
    expect(attempts.map((span) => span.attributes[HANKWEAVE.codonAttempt])).toEqual([1, 2]);
    expect(attempts[0]?.status).toEqual({ code: 'error', message: 'exit 1' });
    expect(attempts[0]?.attributes[HANKWEAVE.failureType]).toBe('agent_error');
    expect(attempts[0]?.attributes[HANKWEAVE.failureDuring]).toBe('running');
    expect(attempts[1]?.status.code).toBe('ok');
    const tool = spans.find((span) => span.name === 'execute_tool Bash');
    expect(tool?.status.code).toBe('error');
    expect(tool?.attributes['error.type']).toBe('tool_error');
    expect(tool?.parentId).toBe(attempts[0]?.id);
    const sentinel = spans.find((span) => span.name === 'sentinel watch');
    expect(sentinel?.parentId).toBe(attempts[0]?.id);
    expect(sentinel?.attributes[GEN_AI.requestModel]).toBe('haiku');
    expect(sentinel?.attributes[HANKWEAVE.costUsd]).toBe(0.002);
    expect(sentinel?.attributes[GEN_AI.inputTokens]).toBe(100);
    const run = spans.find((span) => span.name === 'run');
    expect(run?.status).toEqual({ code: 'error', message: 'a codon failed' });
    expect(run?.attributes[HANKWEAVE.sentinelCostUsd]).toBe(0.002);
    expect(JSON.stringify(spans)).not.toContain('make secret');
    expect(JSON.stringify(spans)).not.toContain('looks bad');
  });

  it('maps a rollback under the run, and ends what a cut journal left open as incomplete', () => {
    const events = [
      transition('RunStarted', { runId: 'r2', startTime: at() }),
      event('rollback.started', {
        fromRun: 'r1',
        fromCodon: 'b',
        toCodon: 'a',
        toCheckpoint: 'abc',
        checkpointType: 'completed',
        codonsToProcess: ['b'],
      }),
      event('rollback.progress', { currentStep: 1, totalSteps: 1, message: 'undo b' }),
      event('rollback.completed', {
        fromRun: 'r1',
        toRun: 'r2',
        checkpoint: 'abc',
        codonId: 'a',
        codonName: 'A',
        checkpointType: 'completed',
        autoRestart: false,
        debris: { directory: 'd', count: 2, files: ['x', 'y'], removedDirectories: 0 },
      }),
      transition('CodonStarted', { runId: 'r2', codonId: 'c', startTime: at() }),
      event('token.usage', {
        codonId: 'c',
        inputTokens: 1,
        outputTokens: 1,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        totalCost: 0.5,
      }),
    ];
    const spans = mapEventsToSpans(events);
    const run = spans.find((span) => span.name === 'run');
    const rollback = spans.find((span) => span.name === 'rollback');
    expect(rollback?.parentId).toBe(run?.id);
    expect(rollback?.events.map((item) => item.name)).toEqual(['rollback.progress']);
    expect(rollback?.attributes[HANKWEAVE.rollbackDebrisCount]).toBe(2);
    const codon = spans.find((span) => span.name === 'codon c');
    expect(codon?.attributes[HANKWEAVE.incomplete]).toBe(true);
    expect(codon?.attributes[HANKWEAVE.costUsd]).toBe(0.5);
    expect(run?.attributes[HANKWEAVE.incomplete]).toBe(true);
    expect(run?.attributes[HANKWEAVE.runStatus]).toBe('incomplete');
  });

  it('ends a sentinel call by its error even when the events name no codon, and keeps ids apart', () => {
    const events = [
      transition('RunStarted', { runId: 'r3', startTime: at() }),
      event('sentinel.triggered', { sentinelId: 'watch', triggerNumber: 1 }),
      event('sentinel.error', { sentinelId: 'watch', errorType: 'timeout', message: 'slow' }),
      // Ids that would run together if they were joined with a separator they may contain.
      event('sentinel.triggered', { sentinelId: 'a|b', codonId: 'c', triggerNumber: 1 }),
      event('sentinel.triggered', { sentinelId: 'a', codonId: 'b|c', triggerNumber: 1 }),
      event('sentinel.error', { sentinelId: 'a', codonId: 'b|c', errorType: 'api' }),
    ];
    const spans = mapEventsToSpans(events);
    const watch = spans.filter((span) => span.name === 'sentinel watch');
    expect(watch).toHaveLength(1);
    expect(watch[0]?.status).toEqual({ code: 'error', message: 'timeout' });
    expect(watch[0]?.attributes[HANKWEAVE.incomplete]).toBeUndefined();
    const ab = spans.find((span) => span.name === 'sentinel a|b');
    const a = spans.find((span) => span.name === 'sentinel a');
    expect(a?.status.code).toBe('error');
    // The other sentinel's call was not ended by that error: the cut journal leaves it open.
    expect(ab?.status.code).not.toBe('error');
    expect(ab?.attributes[HANKWEAVE.incomplete]).toBe(true);
  });

  it('ignores events of types it does not know', () => {
    expect(mapEventsToSpans([event('some.future.event', { codonId: 'x' })])).toEqual([]);
  });
});
