import { RuntimeError } from '@hankweave/runtime';
import { describe, expect, it } from 'vitest';
import { reportError } from './report-error.js';
import type { Terminal } from './terminal.js';

const same = (text: string) => text;

function capture(): { terminal: Terminal; lines: string[] } {
  const lines: string[] = [];
  const terminal: Terminal = {
    isTTY: false,
    color: false,
    columns: 80,
    out: (line = '') => lines.push(line),
    err: (line = '') => lines.push(line),
    write: (text) => lines.push(text),
    style: { bold: same, dim: same, red: same, green: same, yellow: same, cyan: same },
  };
  return { terminal, lines };
}

describe('reportError()', () => {
  it('points at "the fields listed above" only when fields were listed', () => {
    const listed = capture();
    reportError(
      listed.terminal,
      new RuntimeError('RUNTIME_INVALID_HANK', 'hank.json is not a valid hank:\n  hank: missing', {
        details: { errors: [{ path: 'hank', message: 'missing' }] },
      }),
    );
    expect(listed.lines.at(-1)).toContain('fields listed above');

    const syntax = capture();
    reportError(
      syntax.terminal,
      new RuntimeError('RUNTIME_INVALID_HANK', 'hank.json:3:5: Unexpected token', {
        details: { line: 3, column: 5, errors: [{ path: '', message: 'Unexpected token' }] },
      }),
    );
    expect(syntax.lines.at(-1)).toContain('JSON syntax at that line and column');

    const none = capture();
    reportError(
      none.terminal,
      new RuntimeError('RUNTIME_INVALID_HANK', 'hank.json is not a valid hank', {
        details: { errors: [] },
      }),
    );
    expect(none.lines.join('\n')).not.toContain('listed above');
  });
});
