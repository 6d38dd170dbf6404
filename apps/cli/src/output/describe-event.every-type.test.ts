import { EVENT_TYPES, eventDataSchemas } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { type CliEvent, describeEvent } from './describe-event.js';

const timestamp = '2026-01-01T00:00:00.000Z';
const resultingState = { currentRunId: 'r1', runCount: 1, totalCost: 0, currentRunCost: 0 };

/**
 * One minimal, schema-valid payload per event type. A type added to `EVENT_TYPES` without a
 * sample here fails the test below on purpose: add its sample, and a description if it has none.
 */
const SAMPLES: Readonly<Record<string, unknown>> = {
  'codon.started': { codonId: 'a', codonName: 'A', sessionId: 's1', startTime: timestamp },
  'codon.completed': {
    codonId: 'a',
    success: true,
    cost: 0.01,
    duration: 1000,
    exitStatus: { type: 'success' },
  },
  'codon.extended': {
    codonId: 'a',
    codonName: 'A',
    extensionNumber: 2,
    exhaustWithPrompt: 'Keep going until\nthe list is done.',
    cumulativeTokens: 1200,
    cumulativeCost: 0.05,
  },
  'state.snapshot': {
    completedCodons: [],
    fileTree: [],
    totalCost: 0,
    totalTime: 0,
    isRollingBack: false,
  },
  'server.idle': { reason: 'startup', message: 'Waiting' },
  'token.usage': {
    codonId: 'a',
    inputTokens: 1,
    outputTokens: 1,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    totalCost: -0.000001,
  },
  info: { message: 'hello' },
  error: { message: 'boom', fatal: false, severity: 'warning' },
  'checkpoint.list': { runId: null, currentBranch: null, checkpoints: [] },
  'rollback.started': {
    fromRun: 'r1',
    fromCodon: 'b',
    toCodon: 'a',
    toCheckpoint: 'abcdef123',
    checkpointType: 'completed',
    codonsToProcess: ['b'],
  },
  'rollback.progress': { currentStep: 1, totalSteps: 2, message: 'step' },
  'rollback.codonCheckpoint': {
    codonId: 'a',
    codonName: 'A',
    checkpoint: 'abc',
    checkpointType: 'completed',
    message: 'restored',
  },
  'rollback.completed': {
    fromRun: 'r1',
    toRun: 'r2',
    checkpoint: 'abc',
    codonId: 'a',
    codonName: 'A',
    checkpointType: 'completed',
    autoRestart: false,
  },
  'rollback.rigCleanup': { codonId: 'a', codonName: 'A', directories: ['x'], status: 'completed' },
  'rollback.archiveRestore': { codonId: 'a', restoredPaths: [], status: 'completed' },
  'state.transition': {
    transitionType: 'RunStarted',
    transition: { type: 'RunStarted', data: { runId: 'r1' } },
    resultingState,
  },
  'loop.iteration.completed': {
    loopId: 'l',
    iteration: 0,
    durationMs: 1,
    costUsd: 0,
    tokensUsed: 0,
    isFinal: false,
  },
  'loop.iteration.decision': {
    loopId: 'l',
    iteration: 0,
    codonId: 'p#0',
    decision: 'continue',
    plateau: false,
    reason: null,
    source: null,
  },
  'archive.completed': { codonId: 'a', archivedPaths: ['drafts/one.md', 'drafts/two.md'] },
  'archive.partial': {
    codonId: 'a',
    archivedPaths: ['drafts/one.md'],
    failedPaths: [{ path: 'drafts/two.md', error: 'EBUSY' }],
  },
  'budget.summary': {
    ceiling: {},
    allocation: 'even',
    rows: [],
    totals: { actualDollars: 0, actualTimeSeconds: 0 },
  },
  'assistant.action': { codonId: 'a', action: 'message', content: 'done' },
  'tool.result': {
    codonId: 'a',
    toolUseId: 't',
    toolName: 'Bash',
    result: '',
    truncated: false,
    originalLength: 0,
    executionTimeMs: 3,
    isError: false,
  },
  'file.updated': {
    codonId: 'a',
    path: 'notes/a.md',
    filename: 'a.md',
    action: 'created',
    source: { kind: 'codon-start' },
  },
  'filetree.updated': { codonId: 'a', tree: [] },
  'rig.setup.completed': { codonId: 'a', rigType: 'commands', commandCount: 1, durationMs: 5 },
  'rig.setup.failed': { codonId: 'a', failureType: 'other', ignored: false },
  'rig.output': { codonId: 'a', stream: 'stdout', line: 'ok', commandIndex: 0 },
  'sentinel.loaded': {
    sentinelId: 'critic',
    codonId: 'a',
    model: 'haiku',
    triggerType: 'event',
    executionStrategy: 'debounce',
    conversational: true,
    source: 'file',
    sourcePath: 'sentinels/critic.json',
  },
  'sentinel.unloaded': {
    sentinelId: 'critic',
    codonId: 'a',
    reason: 'codon-complete',
    finalCost: 0.002,
    llmCallCount: 3,
  },
  'sentinel.error': {
    sentinelId: 'critic',
    codonId: 'a',
    errorType: 'llm-call-failed',
    message: 'HTTP 529\noverloaded',
    retriable: true,
    consecutiveFailureCount: 2,
  },
  'sentinel.output': {
    sentinelId: 'critic',
    codonId: 'a',
    triggerNumber: 4,
    outputType: 'structured',
    content: { verdict: 'ok', issues: [] },
    cost: 0.001,
    tokens: { input: 10, output: 5 },
    eventCount: 3,
  },
  'sentinel.triggered': {
    sentinelId: 'critic',
    codonId: 'a',
    triggerNumber: 4,
    strategy: 'debounce',
    eventCount: 3,
    queueSize: 0,
  },
  'server.ready': {
    serverVersion: '1',
    executionPath: '/x',
    agentRootPath: '/x/agentRoot',
    dataPath: '/d',
    port: 7001,
  },
  pong: { message: 'pong', timestamp },
  'history.batch': { events: [], hasMore: false },
  'incomplete.codon': { codonId: 'a', codonName: 'A', message: 'was running when it stopped' },
};

const event = (type: string, data: unknown) => ({ id: 'evt_1', type, timestamp, data }) as CliEvent;

describe('describeEvent() over every event type', () => {
  it.each(EVENT_TYPES)('describes %s as a readable line, not JSON', (type) => {
    const data = SAMPLES[type];
    expect(data, `add a sample payload for ${type} to SAMPLES`).toBeDefined();
    // The sample is well-formed: the event's own schema accepts it.
    const parsed = eventDataSchemas[type].parse(data);
    const text = describeEvent(event(type, parsed));
    expect(text.startsWith('{')).toBe(false);
    expect(text.startsWith('[')).toBe(false);
    expect(text).not.toMatch(/\n/);
    expect(text).not.toContain('$-');
  });

  it('gives sentinel and extension events their facts in words', () => {
    const cases: [string, string][] = [
      [
        'sentinel.loaded',
        'sentinel critic loaded: haiku, event trigger, debounce, conversational (sentinels/critic.json)',
      ],
      ['sentinel.triggered', 'sentinel critic triggered (#4, debounce): 3 event(s), 0 queued'],
      ['sentinel.output', 'sentinel critic output #4: fields verdict, issues ($0.0010)'],
      [
        'sentinel.error',
        'sentinel critic llm-call-failed (2 in a row, retried): HTTP 529 overloaded',
      ],
      ['sentinel.unloaded', 'sentinel critic unloaded (codon-complete): 3 call(s), $0.0020'],
      [
        'codon.extended',
        'extended (2): exhaustWithPrompt "Keep going until the list is done.", $0.0500 so far',
      ],
      ['archive.completed', 'archived 2 path(s): drafts/one.md, drafts/two.md'],
      ['archive.partial', 'archived 1 path(s): drafts/one.md; 1 failed: drafts/two.md (EBUSY)'],
      ['token.usage', 'tokens: 1 in, 1 out, $0.0000'],
    ];
    for (const [type, text] of cases) expect(describeEvent(event(type, SAMPLES[type]))).toBe(text);
    const textOutput = { ...(SAMPLES['sentinel.output'] as object), content: 'Looks\nfine' };
    expect(describeEvent(event('sentinel.output', textOutput))).toBe(
      'sentinel critic output #4: "Looks fine" ($0.0010)',
    );
  });

  it('does not call a file that was there before the codon started "created"', () => {
    expect(describeEvent(event('file.updated', SAMPLES['file.updated']))).toBe(
      'tracked notes/a.md (present at codon start)',
    );
    const written = { ...(SAMPLES['file.updated'] as object), source: { kind: 'tool_use' } };
    expect(describeEvent(event('file.updated', written))).toBe('created notes/a.md');
  });
});
