import { describe, expect, it } from 'vitest';
import { isContextExceededText } from './context-exceeded.js';
import { deriveFailureReason, synthesizeMissingFailureReason } from './derive-failure-reason.js';

describe('deriveFailureReason()', () => {
  const base = { sessionEstablished: true, exitCode: 1 };

  it('classifies the error result text before a timeout or a crash of another kind', () => {
    expect(
      deriveFailureReason({
        ...base,
        errorResultText: 'API Error: 529 Overloaded',
        syntheticTimeout: true,
        crashMessage: 'spawn claude ENOENT',
      }),
    ).toEqual({
      type: 'api-error',
      retriable: true,
      message: 'API server error: API Error: 529 Overloaded',
    });
  });

  it('reports a synthetic timeout when there is no error result', () => {
    expect(deriveFailureReason({ ...base, syntheticTimeout: true, crashMessage: 'x' })).toEqual({
      type: 'timeout',
      retriable: true,
      message: 'API Error: Request timed out.',
    });
  });

  it('classifies a harness crash next', () => {
    expect(deriveFailureReason({ ...base, crashMessage: 'socket hang up' })).toEqual({
      type: 'api-error',
      retriable: true,
      message: 'API transport error: socket hang up',
    });
  });

  it('names a full disk first, before the error result it caused', () => {
    expect(
      deriveFailureReason({
        ...base,
        errorResultText: 'API Error: 529 Overloaded',
        crashMessage:
          'Cannot write the agent log /x/runs/r/a-claude.log (ENOSPC: no space left on device, write)',
      }),
    ).toEqual({
      type: 'unknown',
      retriable: false,
      message: 'The disk is full (ENOSPC) writing /x/runs/r/a-claude.log',
      errno: 'ENOSPC',
      path: '/x/runs/r/a-claude.log',
    });
  });

  it('finds no failure after a success, a kill or an exceeded context', () => {
    expect(deriveFailureReason({ ...base, successResult: true })).toBeUndefined();
    expect(deriveFailureReason({ ...base, exitCode: 143, killed: true })).toBeUndefined();
    expect(deriveFailureReason({ ...base, contextExceeded: true })).toBeUndefined();
  });

  it('synthesizes a reason when the agent exited with nothing to say', () => {
    expect(deriveFailureReason({ sessionEstablished: true, exitCode: 1 })).toEqual({
      type: 'api-error',
      retriable: true,
      message: 'Codon process exited without a result message (exit code 1)',
    });
    expect(deriveFailureReason({ sessionEstablished: false, exitCode: 127 })).toEqual({
      type: 'api-error',
      retriable: false,
      message: 'Codon process exited before establishing a session (exit code 127)',
    });
  });

  it('treats an empty error text like any other (rule 9)', () => {
    expect(deriveFailureReason({ ...base, errorResultText: '' })?.message).toBe(
      'API error in result: ',
    );
  });
});

describe('synthesizeMissingFailureReason()', () => {
  it('prints a null exit code as null', () => {
    expect(
      synthesizeMissingFailureReason({ exitCode: null, sessionEstablished: false }).message,
    ).toBe('Codon process exited before establishing a session (exit code null)');
  });
});

describe('isContextExceededText()', () => {
  it('recognises the documented shapes', () => {
    expect(isContextExceededText('API Error: terminated', { synthetic: true })).toBe(true);
    expect(
      isContextExceededText(
        "API Error: Claude's response exceeded the 32000 output token maximum. To configure this behavior, set CLAUDE_CODE_MAX_OUTPUT_TOKENS.",
        { synthetic: false },
      ),
    ).toBe(true);
    expect(isContextExceededText('Prompt is too long', { synthetic: false })).toBe(true);
  });

  it('counts "API Error: terminated" only from a synthetic message', () => {
    expect(isContextExceededText('API Error: terminated', { synthetic: false })).toBe(false);
    expect(isContextExceededText('API Error: 529 Overloaded', { synthetic: true })).toBe(false);
  });
});
