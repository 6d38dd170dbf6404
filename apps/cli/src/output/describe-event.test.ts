import type { EventEnvelope, HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import {
  type CliEvent,
  describeEvent,
  eventCodonId,
  isKnownEvent,
  isProgressEvent,
} from './describe-event.js';

const timestamp = '2026-01-01T00:00:00.000Z';
const event = (type: string, data: unknown) => ({ id: 'evt_1', type, timestamp, data }) as CliEvent;

describe('describeEvent()', () => {
  it('shows a known event whose data lacks a required field as JSON instead of failing', () => {
    const damaged = event('codon.started', { codonId: 'observe', codonName: 'Observe' });
    expect(describeEvent(damaged)).toBe('{"codonId":"observe","codonName":"Observe"}');
    expect(isProgressEvent(event('info', {}))).toBe(true);
  });

  it('describes the known types from their typed data', () => {
    const cases: [HankweaveEvent['type'], unknown, string][] = [
      [
        'loop.iteration.decision',
        {
          loopId: 'review',
          iteration: 1,
          codonId: 'pass#1',
          decision: 'stop',
          plateau: true,
          reason: 'nothing left',
          source: 'message',
        },
        'loop review iteration 1: plateau (nothing left) [message]',
      ],
      [
        'codon.started',
        {
          codonId: 'observe',
          codonName: 'Observe',
          sessionId: '0123456789abcdef',
          startTime: timestamp,
        },
        'started Observe (session 01234567)',
      ],
      [
        'codon.completed',
        {
          codonId: 'a',
          success: true,
          cost: 0.01681,
          duration: 1340,
          exitStatus: { type: 'success' },
        },
        'completed in 1.3s, $0.0168',
      ],
      [
        'codon.completed',
        {
          codonId: 'a',
          success: false,
          cost: 0.1,
          duration: 125_000,
          exitStatus: { type: 'error', code: 1 },
          failureReason: { type: 'unknown', retriable: false, message: 'bad\n thing' },
          failureIgnored: true,
        },
        'failed after 2m 05s: bad thing (ignored: onFailure=ignore)',
      ],
      [
        'codon.completed',
        {
          codonId: 'fix',
          success: false,
          cost: 0,
          duration: 40,
          exitStatus: { type: 'success' },
          skippedBy: 'condition',
          skipReason: 'when (codon test is failed) does not hold: codon test is\ncompleted',
        },
        'skipped: when (codon test is failed) does not hold: codon test is completed',
      ],
      [
        'rig.setup.failed',
        { codonId: 'a', failureType: 'command_failed', exitCode: 2, ignored: true },
        'rig setup failed (command_failed, exit 2), ignored',
      ],
      [
        'assistant.action',
        {
          codonId: 'a',
          action: 'tool_use',
          content: '',
          toolName: 'Read',
          toolInput: { file_path: '/x/agentRoot/notes.md' },
        },
        'tool Read notes.md',
      ],
      [
        'tool.result',
        {
          codonId: 'a',
          toolUseId: 't',
          toolName: 'Bash',
          result: 'no\nway',
          truncated: false,
          originalLength: 6,
          executionTimeMs: 30,
          isError: true,
        },
        'Bash failed in 30ms: no way',
      ],
      [
        'error',
        { message: 'disk full', fatal: false, severity: 'warning' },
        'error (warning): disk full',
      ],
      [
        'state.transition',
        {
          transitionType: 'CheckpointCreated',
          transition: {
            type: 'CheckpointCreated',
            data: { checkpointType: 'completed', sha: 'abcdef1234567' },
          },
          resultingState: { currentRunId: 'r', runCount: 1, totalCost: 0, currentRunCost: 0 },
        },
        'checkpoint completed abcdef1',
      ],
      [
        'rollback.completed',
        {
          fromRun: 'r1',
          toRun: 'r2',
          checkpoint: 'abcdef0123',
          codonId: null,
          codonName: null,
          checkpointType: 'initial',
          autoRestart: false,
        },
        'rollback completed: at initial (initial) abcdef0, run r2',
      ],
      [
        'budget.summary',
        {
          ceiling: {},
          allocation: 'even',
          rows: [],
          totals: { actualDollars: 1.5, actualTimeSeconds: 3 },
        },
        'budget summary: $1.50',
      ],
    ];
    for (const [type, data, text] of cases) expect(describeEvent(event(type, data))).toBe(text);
  });

  it('shows an event of a type it does not know (a newer runtime) as its JSON data', () => {
    const newer: EventEnvelope = event('agent.reflection', { codonId: 'observe', note: 'new' });
    expect(isKnownEvent(newer)).toBe(false);
    expect(describeEvent(newer)).toBe('{"codonId":"observe","note":"new"}');
    expect(eventCodonId(newer)).toBe('observe');
    expect(isProgressEvent(newer)).toBe(true);
  });

  it('does not read the data of a known type that is not an object (a damaged line)', () => {
    const damaged = event('codon.started', null);
    expect(isKnownEvent(damaged)).toBe(false);
    expect(describeEvent(damaged)).toBe('{}');
    expect(eventCodonId(damaged)).toBeUndefined();
  });
});

describe('isProgressEvent()', () => {
  it('leaves out what a person does not follow a run by', () => {
    expect(
      isProgressEvent(event('assistant.action', { codonId: 'a', action: 'thinking', content: '' })),
    ).toBe(false);
    expect(isProgressEvent(event('info', { message: 'Started codon observe' }))).toBe(false);
    expect(isProgressEvent(event('info', { message: 'Execution ready' }))).toBe(true);
  });
});
