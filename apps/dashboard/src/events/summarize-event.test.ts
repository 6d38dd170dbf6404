import { describe, expect, it } from 'vitest';
import {
  describeToolCall,
  eventCodonId,
  eventTone,
  oneLine,
  summarizeEvent,
} from './summarize-event.js';

describe('summarizeEvent()', () => {
  it('describes a completed codon with duration and cost', () => {
    expect(
      summarizeEvent({
        type: 'codon.completed',
        data: { codonId: 'a', success: true, cost: 0.0123, duration: 62_000 },
      }),
    ).toBe('completed in 1m 02s, $0.0123');
  });
  it('gives the failure reason of a failed codon', () => {
    expect(
      summarizeEvent({
        type: 'codon.completed',
        data: { success: false, duration: 500, failureReason: { message: 'exit 1' } },
      }),
    ).toBe('failed after 500ms: exit 1');
  });
  it('gives the reason of a codon its condition skipped', () => {
    expect(
      summarizeEvent({
        type: 'codon.completed',
        data: {
          success: false,
          duration: 3,
          skippedBy: 'condition',
          skipReason: 'when (x exists) does not hold: x does not exist',
        },
      }),
    ).toBe('skipped: when (x exists) does not hold: x does not exist');
  });
  it('describes a tool call by its command or file', () => {
    expect(
      summarizeEvent({
        type: 'assistant.action',
        data: { action: 'tool_use', toolName: 'Bash', toolInput: { command: 'npm   test' } },
      }),
    ).toBe('Bash $ npm test');
    expect(describeToolCall('Edit', { file_path: '/x/agentRoot/src/a.ts' })).toBe('Edit src/a.ts');
  });
  it('summarizes snapshots and file trees instead of dumping them', () => {
    expect(
      summarizeEvent({
        type: 'state.snapshot',
        data: { completedCodons: [{}, {}], totalCost: 0.5 },
      }),
    ).toBe('snapshot: 2 codons done, $0.5000 total');
    // A parallel block's running codons, each with its branch; the original's one codon.
    const running = (codonId: string, branchId: string) => ({
      codonId,
      status: 'running',
      branch: { blockId: 'review', branchId },
    });
    expect(
      summarizeEvent({
        type: 'state.snapshot',
        data: {
          completedCodons: [{}],
          currentCodon: running('l1', 'left'),
          activeCodons: [running('l1', 'left'), running('r1', 'right'), { codonId: 'x' }],
          totalCost: 0.5,
        },
      }),
    ).toBe(
      'snapshot: 1 codons done, running l1 (review/left), r1 (review/right), x, $0.5000 total',
    );
    expect(
      summarizeEvent({
        type: 'state.snapshot',
        data: { completedCodons: [], currentCodon: 'write', totalCost: 0 },
      }),
    ).toBe('snapshot: 0 codons done, running write, $0.0000 total');
    expect(summarizeEvent({ type: 'filetree.updated', data: { tree: [{}, {}, {}] } })).toBe(
      'file tree: 3 top-level entries',
    );
  });
  it('falls back to JSON for unknown types and damaged data', () => {
    expect(summarizeEvent({ type: 'from.the.future', data: { a: 1 } })).toBe('{"a":1}');
    expect(summarizeEvent({ type: 'info', data: 'oops' })).toBe('"oops"');
  });
  it('does not throw when a known type misses its fields', () => {
    expect(summarizeEvent({ type: 'codon.completed', data: {} })).toContain('failed after');
  });
});

describe('oneLine()', () => {
  it('collapses whitespace and cuts with an ellipsis', () => {
    expect(oneLine('a\n  b')).toBe('a b');
    expect(oneLine('abcdef', 4)).toBe('abc…');
  });
});

describe('eventCodonId() and eventTone()', () => {
  it('reads the codon id when present', () => {
    expect(eventCodonId({ data: { codonId: 'x' } })).toBe('x');
    expect(eventCodonId({ data: null })).toBeUndefined();
  });
  it('marks errors and failed tool results bad, successful codons good', () => {
    expect(eventTone({ type: 'error', data: {} })).toBe('bad');
    expect(eventTone({ type: 'tool.result', data: { isError: true } })).toBe('bad');
    expect(eventTone({ type: 'codon.completed', data: { success: true } })).toBe('good');
    expect(eventTone({ type: 'info', data: {} })).toBe('plain');
  });
});
