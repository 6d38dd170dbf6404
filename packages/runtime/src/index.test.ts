import { describe, expect, it } from 'vitest';
import { RUNTIME_ERROR_CODES } from './index.js';
import { computeExitCode } from './runtime/exit-code.js';

describe('@hankweave/runtime', () => {
  it('exports a stable set of names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchSnapshot();
  });

  it('has a stable list of error codes', () => {
    expect(RUNTIME_ERROR_CODES).toMatchSnapshot();
  });
});

describe('computeExitCode()', () => {
  it.each([
    ['all codons completed', 'completed', 0],
    ['all codons completed', 'failed', 1],
    ['codon failure', 'failed', 1],
    ['client request', 'completed', 0],
    ['SIGINT', 'failed', 0],
    ['SIGTERM', 'failed', 0],
    ['force', 'running', 1],
    ['error', 'failed', 1],
  ] as const)('maps %s (run %s) to %i as reference §2.6 does', (reason, status, code) => {
    expect(computeExitCode(reason, status)).toBe(code);
  });
});
