import { describe, expect, it } from 'vitest';
import { printable } from './printable.js';

describe('printable()', () => {
  it('shows control characters as escapes, so they cannot act on the terminal', () => {
    expect(printable('rm x\u001b[2J\u0007')).toBe('rm x\\x1b[2J\\x07');
    expect(printable('a\nb\tc\rd\u009b')).toBe('a\\nb\\tc\\rd\\x9b');
  });

  it('leaves ordinary text, unicode included, as it is', () => {
    expect(printable('ls notes → résumé ✓')).toBe('ls notes → résumé ✓');
  });
});
