import { describe, expect, it } from 'vitest';
import { buildClaudeArgs } from './claude-args.js';

describe('buildClaudeArgs()', () => {
  it('runs print mode in stream-json with permissions bypassed', () => {
    expect(buildClaudeArgs({ model: 'claude-sonnet-4-5' })).toEqual([
      '-p',
      '--verbose',
      '--output-format',
      'stream-json',
      '--model',
      'claude-sonnet-4-5',
      '--dangerously-skip-permissions',
    ]);
  });

  it('adds resume, the system prompt append, compaction settings and extra flags', () => {
    expect(
      buildClaudeArgs(
        { model: 'm', resumeSessionId: 's-1', appendSystemPrompt: 'Be brief.', autoCompact: false },
        ['--max-turns', '5'],
      ).slice(7),
    ).toEqual([
      '--resume',
      's-1',
      '--append-system-prompt',
      'Be brief.',
      '--settings',
      '{"autoCompactEnabled":false}',
      '--max-turns',
      '5',
    ]);
  });

  it('leaves out an empty system prompt append', () => {
    expect(buildClaudeArgs({ model: 'm', appendSystemPrompt: '' })).not.toContain(
      '--append-system-prompt',
    );
  });
});
