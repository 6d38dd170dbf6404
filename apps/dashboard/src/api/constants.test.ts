import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, CLIENT_ERROR_CODES } from './constants.js';

describe('the API error codes', () => {
  it('keeps the server’s and the app’s lists stable', () => {
    expect({ API_ERROR_CODES, CLIENT_ERROR_CODES }).toMatchSnapshot();
  });

  it('spells no code twice across the two lists', () => {
    const all = [...API_ERROR_CODES, ...CLIENT_ERROR_CODES];
    expect(new Set(all).size).toBe(all.length);
  });
});
