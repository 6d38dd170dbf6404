import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolvePiCli } from './resolve-pi-cli.js';

describe('resolvePiCli()', () => {
  it("finds the installed package's dist/cli.js", () => {
    const cli = resolvePiCli({ env: {} });
    expect(cli).toMatch(/pi-coding-agent[\\/]dist[\\/]cli\.js$/);
    expect(existsSync(cli)).toBe(true);
  });

  it('uses HANKWEAVE_PI_PATH, and names it when it does not exist', () => {
    const real = resolvePiCli({ env: {} });
    expect(resolvePiCli({ env: { HANKWEAVE_PI_PATH: real } })).toBe(real);
    expect(() => resolvePiCli({ env: { HANKWEAVE_PI_PATH: '/nowhere/cli.js' } })).toThrow(
      expect.objectContaining({ code: 'HARNESS_BINARY_NOT_FOUND' }),
    );
    expect(() => resolvePiCli({ explicitPath: '/nowhere/cli.js' })).toThrow(
      expect.objectContaining({ code: 'HARNESS_BINARY_NOT_FOUND' }),
    );
  });
});
