import { describe, expect, it } from 'vitest';
import { applyRootSandbox, isEnvFlagSet } from './root-sandbox.js';

describe('applyRootSandbox()', () => {
  it('does nothing when not root', () => {
    const env: Record<string, string> = {};
    applyRootSandbox(env, { isRoot: false, allowRootSandbox: false, baseEnv: {} });
    expect(env).toEqual({});
  });

  it('sets IS_SANDBOX=1 as root when the option allows it', () => {
    const env: Record<string, string> = {};
    applyRootSandbox(env, { isRoot: true, allowRootSandbox: true, baseEnv: {} });
    expect(env).toEqual({ IS_SANDBOX: '1' });
  });

  it('allows it by default when IS_SANDBOX is already set, in the environment or the codon env', () => {
    const fromBase: Record<string, string> = {};
    applyRootSandbox(fromBase, {
      isRoot: true,
      allowRootSandbox: undefined,
      baseEnv: { IS_SANDBOX: 'yes' },
    });
    expect(fromBase.IS_SANDBOX).toBe('1');
    const fromCodon: Record<string, string> = { IS_SANDBOX: 'true' };
    applyRootSandbox(fromCodon, { isRoot: true, allowRootSandbox: undefined, baseEnv: {} });
    expect(fromCodon.IS_SANDBOX).toBe('1');
  });

  it('throws HARNESS_ROOT_NOT_ALLOWED as root otherwise, saying how to allow it', () => {
    for (const allowRootSandbox of [undefined, false]) {
      expect(() =>
        applyRootSandbox(
          {},
          {
            isRoot: true,
            allowRootSandbox,
            baseEnv: { IS_SANDBOX: allowRootSandbox === false ? '1' : '0' },
          },
        ),
      ).toThrow(
        expect.objectContaining({
          code: 'HARNESS_ROOT_NOT_ALLOWED',
          message: expect.stringContaining('allowRootSandbox'),
        }),
      );
    }
  });
});

describe('isEnvFlagSet()', () => {
  it('reads 1/true/yes as set and 0/false/no/off/empty as not', () => {
    expect(['1', 'true', 'yes', 'YES'].map(isEnvFlagSet)).toEqual([true, true, true, true]);
    expect(['0', 'false', 'no', 'off', '', undefined].map(isEnvFlagSet)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
