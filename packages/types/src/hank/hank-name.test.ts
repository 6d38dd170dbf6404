import { describe, expect, it } from 'vitest';
import { hankNameFromPath } from '../index.js';

// Moved from validateHank's compatibility tests (now in @hankweave/hank) with the function.
describe('a hank without meta', () => {
  it('names hanks from paths as documented', () => {
    expect(hankNameFromPath('/x/y/budget-replay.JSON')).toBe('budget-replay');
    expect(hankNameFromPath('/x/y/hank.json')).toBe('y');
    expect(hankNameFromPath('/x/y/HANK.json', '/elsewhere/z')).toBe('z');
    expect(hankNameFromPath('/hank.json')).toBe('hank');
    expect(hankNameFromPath(undefined, '/x/q')).toBe('q');
  });
});
