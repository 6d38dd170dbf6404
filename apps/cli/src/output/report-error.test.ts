import { statSync } from 'node:fs';
import { CHECKPOINT_ERROR_CODES, CheckpointError } from '@hankweave/checkpoints';
import { JOURNAL_ERROR_CODES } from '@hankweave/journal';
import { RUNTIME_ERROR_CODES, RuntimeError } from '@hankweave/runtime';
import { SCRIPTED_MODEL_ERROR_CODES } from '@hankweave/scripted-model';
import { SERVER_ERROR_CODES } from '@hankweave/server';
import { SESSIONS_ERROR_CODES } from '@hankweave/sessions';
import { STATE_ERROR_CODES } from '@hankweave/state';
import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { CLI_ERROR_CODES, CliError } from './cli-error.js';
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

/** What `reportError` prints for `error`. */
function reported(error: unknown): string[] {
  const { terminal, lines } = capture();
  expect(reportError(terminal, error)).toBe(1);
  return lines;
}

describe('reportError() next steps', () => {
  it('ends every coded error with a `→` line, and asks for a bug report only for RUNTIME_INTERNAL', () => {
    const codes = [
      ...RUNTIME_ERROR_CODES,
      ...STATE_ERROR_CODES,
      ...CHECKPOINT_ERROR_CODES,
      ...JOURNAL_ERROR_CODES,
      ...SCRIPTED_MODEL_ERROR_CODES,
      ...SESSIONS_ERROR_CODES,
      ...SERVER_ERROR_CODES,
    ];
    for (const code of codes) {
      const lines = reported(new HankweaveError(code, `something about ${code}`));
      expect(lines.at(-1), code).toMatch(/^→ \S/);
      if (code === 'RUNTIME_INTERNAL') expect(lines.at(-1)).toContain('report');
      else expect(lines.join('\n'), code).not.toMatch(/report/i);
    }
    for (const code of CLI_ERROR_CODES) {
      expect(reported(new CliError(code, 'no hint given')).at(-1)).toMatch(/^→ \S/);
    }
  });

  it('says a raw ENOENT in words, by path, with no bug report', () => {
    let error: unknown;
    try {
      statSync('/nonexistent-hankweave-path/data');
    } catch (caught) {
      error = caught;
    }
    const lines = reported(error);
    expect(lines[0]).toBe('Error: /nonexistent-hankweave-path/data does not exist (ENOENT).');
    expect(lines.at(-1)).toMatch(/^→ Check the path/);
    expect(lines.join('\n')).not.toMatch(/report/i);
  });

  it('names a full disk under the error that wrapped it, and its hint wins', () => {
    const cause = Object.assign(new Error("ENOSPC: no space left on device, write '/x/s.json'"), {
      code: 'ENOSPC',
      path: '/x/s.json',
    });
    const lines = reported(
      new CheckpointError('CHECKPOINT_STORAGE_FAILED', 'cannot open the checkpoint repository', {
        cause,
      }),
    );
    expect(lines).toEqual([
      'Error: cannot open the checkpoint repository',
      '  The disk holding /x/s.json is full (ENOSPC).',
      expect.stringMatching(/^→ Free space on that disk/),
    ]);
  });

  it('keeps the bug report line for an error nobody anticipated', () => {
    expect(reported(new TypeError('x is not a function')).at(-1)).toMatch(
      /^→ .*report it if it looks like a bug/,
    );
  });

  it('uses the hint of a CliError as given', () => {
    expect(reported(new CliError('CLI_USAGE', 'bad', 'Do this.'))).toEqual([
      'Error: bad',
      '→ Do this.',
    ]);
  });
});
