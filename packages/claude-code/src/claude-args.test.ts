import { describe, expect, it } from 'vitest';
import { buildClaudeArgs, DATA_SOURCE_DENY_RULES } from './claude-args.js';

const denyOnly = JSON.stringify({
  permissions: { deny: ['Edit(./read_only_data_source)', 'Edit(./read_only_data_source/**)'] },
});

describe('buildClaudeArgs()', () => {
  it('runs print mode in stream-json with permissions bypassed except the data source', () => {
    expect(buildClaudeArgs({ model: 'claude-sonnet-4-5' })).toEqual([
      '-p',
      '--verbose',
      '--output-format',
      'stream-json',
      '--model',
      'claude-sonnet-4-5',
      '--dangerously-skip-permissions',
      '--settings',
      denyOnly,
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
      JSON.stringify({
        autoCompactEnabled: false,
        permissions: {
          deny: ['Edit(./read_only_data_source)', 'Edit(./read_only_data_source/**)'],
        },
      }),
      '--max-turns',
      '5',
    ]);
  });

  it('passes one --settings that merges compaction with the deny rules', () => {
    const args = buildClaudeArgs({ model: 'm', autoCompact: true });
    expect(args.filter((arg) => arg === '--settings')).toHaveLength(1);
    const settings = JSON.parse(args[args.indexOf('--settings') + 1] as string);
    expect(settings).toEqual({
      autoCompactEnabled: true,
      permissions: { deny: [...DATA_SOURCE_DENY_RULES] },
    });
  });

  it('denies the data source through Edit rules, the only file rule Claude Code consults', () => {
    // Write(path) rules are accepted but never checked (the e2e in @hankweave/runtime proves the
    // Edit rule stops a scripted Write); every rule must be an Edit rule on the data link.
    expect(DATA_SOURCE_DENY_RULES.length).toBeGreaterThan(0);
    for (const rule of DATA_SOURCE_DENY_RULES) {
      expect(rule).toMatch(/^Edit\(\.\/read_only_data_source(\/\*\*)?\)$/);
    }
  });

  it('leaves out an empty system prompt append', () => {
    expect(buildClaudeArgs({ model: 'm', appendSystemPrompt: '' })).not.toContain(
      '--append-system-prompt',
    );
  });
});
