import { describe, expect, it } from 'vitest';
import { buildAgentEnv } from './build-agent-env.js';

describe('buildAgentEnv()', () => {
  it('passes the listed names and the CLAUDE_CODE_* / ANTHROPIC_* prefixes only', () => {
    const env = buildAgentEnv({
      baseEnv: {
        PATH: '/bin',
        HOME: '/home/a',
        USER: 'a',
        SHELL: '/bin/sh',
        TMPDIR: '/tmp/a',
        LANG: 'C.UTF-8',
        LC_ALL: 'C',
        CLAUDE_CONFIG_DIR: '/home/a/.claude',
        CLAUDE_CODE_MAX_RETRIES: '0',
        ANTHROPIC_API_KEY: 'key',
        AWS_SECRET_ACCESS_KEY: 'secret',
        NODE_OPTIONS: '--inspect',
        IS_SANDBOX: '1',
        CLAUDE_X: 'not a prefix match',
      },
    });
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/a',
      USER: 'a',
      SHELL: '/bin/sh',
      TMPDIR: '/tmp/a',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      CLAUDE_CONFIG_DIR: '/home/a/.claude',
      CLAUDE_CODE_MAX_RETRIES: '0',
      ANTHROPIC_API_KEY: 'key',
    });
  });

  it('maps HANKWEAVE_X to X, except HANKWEAVE_RUNTIME_* and HANKWEAVE_SENTINEL_*', () => {
    const env = buildAgentEnv({
      baseEnv: {
        HANKWEAVE_GITHUB_TOKEN: 'gh',
        HANKWEAVE_RUNTIME_PORT: '7777',
        HANKWEAVE_SENTINEL_MODEL: 'x',
        HANKWEAVE_: 'empty name',
      },
    });
    expect(env).toEqual({ GITHUB_TOKEN: 'gh' });
  });

  it('deletes X when HANKWEAVE_X is "unset", also a passed-through X', () => {
    const env = buildAgentEnv({
      baseEnv: { ANTHROPIC_API_KEY: 'key', HANKWEAVE_ANTHROPIC_API_KEY: 'unset', PATH: '/bin' },
    });
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('lets HANKWEAVE_X override a passed-through X', () => {
    const env = buildAgentEnv({
      baseEnv: { ANTHROPIC_MODEL: 'a', HANKWEAVE_ANTHROPIC_MODEL: 'b' },
    });
    expect(env.ANTHROPIC_MODEL).toBe('b');
  });

  it('overrides ANTHROPIC_BASE_URL with anthropicBaseUrl', () => {
    const env = buildAgentEnv({
      baseEnv: {
        ANTHROPIC_BASE_URL: 'https://api.anthropic.com',
        HANKWEAVE_ANTHROPIC_BASE_URL: 'x',
      },
      anthropicBaseUrl: 'http://127.0.0.1:9999',
    });
    expect(env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9999');
  });

  it('applies the codon env last, where "unset" deletes too', () => {
    const env = buildAgentEnv({
      baseEnv: { PATH: '/bin', ANTHROPIC_API_KEY: 'key', HANKWEAVE_FOO: 'from-hankweave' },
      anthropicBaseUrl: 'http://proxy',
      codonEnv: {
        FOO: 'from-codon',
        ANTHROPIC_BASE_URL: 'http://codon',
        ANTHROPIC_API_KEY: 'unset',
      },
    });
    expect(env).toEqual({ PATH: '/bin', FOO: 'from-codon', ANTHROPIC_BASE_URL: 'http://codon' });
  });

  it('reads process.env when no baseEnv is given', () => {
    expect(buildAgentEnv().PATH).toBe(process.env.PATH);
  });
});
