import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { CLI_ERROR_CODES, CliError } from './cli-error.js';

describe('CliError', () => {
  it('is a hankweave error with a closed list of codes and a hint', () => {
    const error = new CliError('CLI_NOT_FOUND', 'no such execution', 'Pass -e <dir>.');
    expect(error.name).toBe('CliError');
    expect(error.hint).toBe('Pass -e <dir>.');
    expect(error.details).toEqual({ hint: 'Pass -e <dir>.' });
    expect(CliError.codes).toEqual(CLI_ERROR_CODES);
    expect(CliError.is(error)).toBe(true);
    expect(CliError.is(error, 'CLI_NOT_FOUND')).toBe(true);
    expect(CliError.is(error, 'CLI_USAGE')).toBe(false);
    expect(HankweaveError.is(error, 'CLI_NOT_FOUND')).toBe(true);
    expect(CliError.is(new HankweaveError('CLI_NOT_FOUND', 'other class'))).toBe(false);
    expect(new CliError('CLI_USAGE', 'no hint').details).toEqual({});
    expect(() => new CliError('CLI_OOPS' as 'CLI_USAGE', 'x')).toThrow(TypeError);
  });
});
