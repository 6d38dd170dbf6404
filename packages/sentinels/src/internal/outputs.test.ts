import { describe, expect, it } from 'vitest';
import { resolveOutputTargets, unescapeJoin } from './outputs.js';

const base = {
  hankweaveDir: '/x/exec/.hankweave',
  agentRoot: '/x/exec/agentRoot',
  sentinelId: 'rev',
  codonId: 'review#1',
  loadedAtMs: 1736000001000,
};

describe('resolveOutputTargets()', () => {
  it('names automatic files {id}-{codonId}-{ms} with .md or .ndjson', () => {
    expect(resolveOutputTargets({ ...base, mode: 'text' }).logFile).toBe(
      '/x/exec/.hankweave/sentinels/outputs/rev/rev-review#1-1736000001000.md',
    );
    expect(resolveOutputTargets({ ...base, mode: 'structured' }).logFile).toMatch(/\.ndjson$/);
  });

  it('puts bare names in the output dir and paths with / under agentRoot', () => {
    const targets = resolveOutputTargets({
      ...base,
      mode: 'text',
      logFile: 'notes/review.md',
      lastValueFile: 'last.txt',
    });
    expect(targets.logFile).toBe('/x/exec/agentRoot/notes/review.md');
    expect(targets.lastValueFile).toBe('/x/exec/.hankweave/sentinels/outputs/rev/last.txt');
  });

  it('refuses paths that escape, and a structured lastValueFile that is not .json', () => {
    expect(() =>
      resolveOutputTargets({ ...base, mode: 'text', logFile: '../../../etc/x' }),
    ).toThrow(expect.objectContaining({ code: 'SENTINEL_OUTPUT_PATH_INVALID' }));
    expect(() =>
      resolveOutputTargets({ ...base, mode: 'structured', lastValueFile: 'last.txt' }),
    ).toThrow(expect.objectContaining({ code: 'SENTINEL_OUTPUT_PATH_INVALID' }));
  });
});

describe('resolveOutputTargets() containment', () => {
  // agentRoot outside the execution directory, so `../x` escapes both roots.
  const apart = { ...base, agentRoot: '/y/agentRoot' };

  it('accepts a file named ..foo in the output directory', () => {
    const targets = resolveOutputTargets({
      ...apart,
      mode: 'text',
      logFile: '..foo',
      lastValueFile: '..last',
    });
    expect(targets.logFile).toBe('/x/exec/.hankweave/sentinels/outputs/rev/..foo');
    expect(targets.lastValueFile).toBe('/x/exec/.hankweave/sentinels/outputs/rev/..last');
  });

  it('refuses ../x', () => {
    for (const name of ['logFile', 'lastValueFile']) {
      expect(() => resolveOutputTargets({ ...apart, mode: 'text', [name]: '../x' })).toThrow(
        expect.objectContaining({ code: 'SENTINEL_OUTPUT_PATH_INVALID' }),
      );
    }
  });
});

describe('unescapeJoin()', () => {
  it('defaults to a rule and processes escapes', () => {
    expect(unescapeJoin(undefined)).toBe('\n---\n');
    expect(unescapeJoin('\\n\\t|\\\\')).toBe('\n\t|\\');
  });
});
