import { describe, expect, it } from 'vitest';
import { buildPiArgs, PI_TOOLS } from './pi-args.js';

const model = { provider: 'openai', model: 'gpt-5.2' };

describe('buildPiArgs()', () => {
  it('runs Pi in JSON print mode, offline, with the tools of reference §4.3', () => {
    const args = buildPiArgs({ model, sessionDir: '/s' });
    expect(args.slice(0, 4)).toEqual(['--mode', 'json', '-p', '--offline']);
    expect(args).toContain('--no-extensions');
    const flag = (name: string) => args[args.indexOf(name) + 1];
    expect(flag('--provider')).toBe('openai');
    expect(flag('--model')).toBe('gpt-5.2');
    expect(flag('--tools')).toBe('read,bash,edit,write,grep,find,ls');
    expect(flag('--session-dir')).toBe('/s');
    expect(args).not.toContain('--thinking');
    expect(args).not.toContain('--session');
    expect(PI_TOOLS).toHaveLength(7);
  });

  it('adds the thinking level, the session to resume, the prompt file and extra args', () => {
    const args = buildPiArgs(
      {
        model: { ...model, thinking: 'xhigh' },
        sessionDir: '/s',
        resumeSessionId: 'abc',
        appendSystemPromptFile: '/c/append.md',
      },
      ['--verbose'],
    );
    expect(args.slice(-7)).toEqual([
      '--thinking',
      'xhigh',
      '--session',
      'abc',
      '--append-system-prompt',
      '/c/append.md',
      '--verbose',
    ]);
  });
});
