import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAnthropicCredentials } from './anthropic-credentials.js';

describe('findAnthropicCredentials()', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir('credentials-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('finds nothing in an empty HOME and says where it looked', () => {
    expect(findAnthropicCredentials({ HOME: dir.path })).toEqual({
      found: false,
      looked: [join(dir.path, '.claude', '.credentials.json'), join(dir.path, '.claude.json')],
    });
  });

  it('ignores empty values', () => {
    const env = { HOME: dir.path, ANTHROPIC_API_KEY: '  ', ANTHROPIC_AUTH_TOKEN: '' };
    expect(findAnthropicCredentials(env).found).toBe(false);
  });

  it.each([
    [{ ANTHROPIC_API_KEY: 'sk' }, 'ANTHROPIC_API_KEY'],
    [{ ANTHROPIC_AUTH_TOKEN: 't' }, 'ANTHROPIC_AUTH_TOKEN'],
    [{ CLAUDE_CODE_OAUTH_TOKEN: 't' }, 'CLAUDE_CODE_OAUTH_TOKEN'],
    [{ CLAUDE_CODE_USE_BEDROCK: '1' }, 'Amazon Bedrock'],
    [{ CLAUDE_CODE_USE_VERTEX: 'true' }, 'Google Vertex AI'],
    [{ ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }, 'ANTHROPIC_BASE_URL'],
  ])('finds %o as %s', (extra, source) => {
    expect(findAnthropicCredentials({ HOME: dir.path, ...extra })).toEqual({ found: true, source });
  });

  it('finds the credentials file of `claude login` in ~/.claude', () => {
    mkdirSync(join(dir.path, '.claude'));
    writeFileSync(join(dir.path, '.claude', '.credentials.json'), '{}');
    expect(findAnthropicCredentials({ HOME: dir.path })).toEqual({
      found: true,
      source: 'claude login',
    });
  });

  it('looks in CLAUDE_CONFIG_DIR instead of ~/.claude when it is set', () => {
    mkdirSync(join(dir.path, '.claude'));
    writeFileSync(join(dir.path, '.claude', '.credentials.json'), '{}');
    const config = join(dir.path, 'config');
    mkdirSync(config);
    const env = { HOME: dir.path, CLAUDE_CONFIG_DIR: config };
    expect(findAnthropicCredentials(env).found).toBe(false);
    // macOS keeps the token in the keychain: the account in .claude.json is what is on disk.
    writeFileSync(join(config, '.claude.json'), JSON.stringify({ oauthAccount: { id: 'x' } }));
    expect(findAnthropicCredentials(env)).toEqual({ found: true, source: 'claude login' });
  });

  it('does not count a .claude.json without an account, or one that is not JSON', () => {
    writeFileSync(join(dir.path, '.claude.json'), JSON.stringify({ numStartups: 3 }));
    expect(findAnthropicCredentials({ HOME: dir.path }).found).toBe(false);
    writeFileSync(join(dir.path, '.claude.json'), '{ not json');
    expect(findAnthropicCredentials({ HOME: dir.path }).found).toBe(false);
  });
});
