import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loopSessionKey,
  parseSessionKey,
  pipelineSessionKey,
  progressFileRelativePath,
  SESSIONS_DIR_NAME,
  sessionLayout,
  toSessionName,
} from './layout.js';

describe('sessionLayout()', () => {
  it('places every file of the seed under P/.claude', () => {
    const layout = sessionLayout('/p');
    expect(SESSIONS_DIR_NAME).toBe('.claude');
    expect(layout).toMatchObject({
      projectDir: '/p',
      claudeDir: join('/p', '.claude'),
      registryFile: join('/p', '.claude', 'loop-sessions.json'),
      completionsFile: join('/p', '.claude', 'loop-completions.json'),
      registryLockFile: join('/p', '.claude', 'loop-sessions.json.lock'),
      completionsLockFile: join('/p', '.claude', 'loop-completions.json.lock'),
    });
    expect(layout.loopStateFile('myfeature')).toBe('/p/.claude/loop-state-myfeature.json');
    expect(layout.pipelineDir('myrefine')).toBe('/p/.claude/pipeline-runs/myrefine');
    expect(layout.pipelineStateFile('myrefine')).toBe(
      '/p/.claude/pipeline-runs/myrefine/state.json',
    );
    expect(layout.progressFile('myfeature')).toBe(
      '/p/.claude/loop-progress/progress-myfeature.txt',
    );
  });

  it.each([[''], ['.'], ['..'], ['a/b'], ['a b'], ['x'.repeat(201)]])(
    'rejects the session name %j with SESSIONS_INVALID_NAME',
    (name) => {
      const layout = sessionLayout('/p');
      expect(() => layout.loopStateFile(name)).toThrow(
        expect.objectContaining({ code: 'SESSIONS_INVALID_NAME' }),
      );
      expect(() => layout.pipelineStateFile(name)).toThrow(
        expect.objectContaining({ code: 'SESSIONS_INVALID_NAME' }),
      );
      expect(() => loopSessionKey(name)).toThrow(
        expect.objectContaining({ code: 'SESSIONS_INVALID_NAME' }),
      );
    },
  );
});

describe('progressFileRelativePath()', () => {
  it('is the POSIX path relative to a working directory', () => {
    expect(progressFileRelativePath('a.b-c_1')).toBe('.claude/loop-progress/progress-a.b-c_1.txt');
  });
});

describe('session keys', () => {
  it('prefixes loops with loop- and pipelines with pipeline-', () => {
    expect(loopSessionKey('myfeature')).toBe('loop-myfeature');
    expect(pipelineSessionKey('refine')).toBe('pipeline-refine');
  });

  it('splits a key back into its type and session, loop-state names without the prefix', () => {
    expect(parseSessionKey('loop-feature-name')).toEqual({ type: 'loop', session: 'feature-name' });
    expect(parseSessionKey('pipeline-refine')).toEqual({ type: 'pipeline', session: 'refine' });
    expect(parseSessionKey('odd-key')).toEqual({ type: undefined, session: 'odd-key' });
  });
});

describe('toSessionName()', () => {
  it('joins parts with "-" and makes every other character file-safe', () => {
    expect(toSessionName('my hank', 'exec/1')).toBe('my_hank-exec_1');
    expect(toSessionName('a.b_c-D9')).toBe('a.b_c-D9');
    expect(toSessionName('ünï', '🙂')).toBe('_n_-_');
  });

  it('gives names the layout accepts', () => {
    const name = toSessionName('hank: build & test', '2025-01-10T10:00:00Z');
    expect(() => sessionLayout('/p').loopStateFile(name)).not.toThrow();
  });
});
