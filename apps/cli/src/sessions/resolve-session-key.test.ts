import { describe, expect, it } from 'vitest';
import { resolveSessionKey } from './resolve-session-key.js';

const sessions = {
  'pipeline-1736000000000-ab12-hello': { status: 'completed' },
  'loop-1736000000000-ab12-hello-polish': { status: 'completed' },
  'pipeline-1736100000000-cd34-hello': { status: 'running' },
  'loop-1736100000000-cd34-hello-polish': { status: 'running' },
  'pipeline-refine': { status: 'killed' },
};
const resolve = (input: string) =>
  resolveSessionKey(input, sessions, '/base/.claude/loop-sessions.json');

describe('resolveSessionKey()', () => {
  it('accepts the full key and the key without its prefix', () => {
    expect(resolve('pipeline-refine')).toBe('pipeline-refine');
    expect(resolve('refine')).toBe('pipeline-refine');
    expect(resolve('1736000000000-ab12-hello-polish')).toBe('loop-1736000000000-ab12-hello-polish');
  });

  it('accepts a unique start, preferring the running pipeline over its loops', () => {
    expect(resolve('17361')).toBe('pipeline-1736100000000-cd34-hello');
    expect(resolve('loop-17360')).toBe('loop-1736000000000-ab12-hello-polish');
  });

  it('rejects an unknown session with CLI_NOT_FOUND and an ambiguous start with CLI_USAGE', () => {
    expect(() => resolve('nothing')).toThrow(expect.objectContaining({ code: 'CLI_NOT_FOUND' }));
    expect(() => resolve('17360')).toThrow(expect.objectContaining({ code: 'CLI_USAGE' }));
  });
});
