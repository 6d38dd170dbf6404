import { describe, expect, it } from 'vitest';
import { exactBytes, formatBytes } from './format-bytes.js';

describe('formatBytes()', () => {
  it('prints bytes, then binary units', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(4300)).toBe('4.20 KB');
    expect(formatBytes(11 * 1024 * 1024)).toBe('11.0 MB');
  });

  it('groups exact bytes for reading', () => {
    expect(exactBytes(19812345)).toBe('19,812,345');
  });
});
