import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDefinition } from './config-loader.js';
import { PromptTemplate } from './templates.js';

afterEach(cleanupTempDirs);

// Issue 31: a hank can name any readable file; a failure message quoted its first characters
// (V8's JSON.parse message), `/etc/shadow` included. No message carries a file's content.
describe('loadDefinition() on a file that is not a sentinel', () => {
  it('says the file is not JSON without quoting a character of it', async () => {
    const dir = await makeTempDir('sentinel-leak-');
    writeFileSync(join(dir.path, 'secret.json'), 'root:$y$SECRETHASH:19000:0:99999:7:::\n');
    const failure = loadDefinition({ sentinelConfig: 'secret.json' } as never, dir.path, new Map());
    await expect(failure).rejects.toMatchObject({ code: 'SENTINEL_CONFIG_UNREADABLE' });
    const message = await failure.catch((error: Error) => error.message);
    expect(message).toContain('secret.json cannot be read as JSON');
    expect(message).not.toMatch(/root|SECRET|\$y\$/);
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const dir = await makeTempDir('sentinel-fifo-');
    execFileSync('mkfifo', [join(dir.path, 'fifo.json')]);
    await expect(
      loadDefinition({ sentinelConfig: 'fifo.json' } as never, dir.path, new Map()),
    ).rejects.toMatchObject({ code: 'SENTINEL_CONFIG_UNREADABLE' });
  });
});

describe('PromptTemplate', () => {
  it('reports a syntax error without the template text', () => {
    const template = new PromptTemplate('line one\nroot:SECRET <% oops', 'user prompt');
    expect(() => template.render({})).toThrow(/unclosed tag at line 2/);
    expect(() => template.render({})).not.toThrow(/SECRET/);
  });
});
