import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeFs } from '@hankweave/durable-io';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../test/helpers/fixtures.js';
import { ensureProgressFile, progressEntries, progressFileHeader } from './progress-file.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('sessions-progress-');
});
afterEach(() => dir.cleanup());

describe('progressFileHeader()', () => {
  it("is the seed's header, with the Verify line when given", () => {
    expect(progressFileHeader('myfeature', 'npm test && npm run build')).toBe(
      '# Progress: myfeature\n\nVerify: npm test && npm run build\n\n## Codebase Patterns\n' +
        '(Patterns discovered during implementation)\n\n---\n',
    );
    expect(progressFileHeader('s')).toBe(
      '# Progress: s\n\n## Codebase Patterns\n(Patterns discovered during implementation)\n\n---\n',
    );
  });

  it("starts the seed's example byte for byte", async () => {
    const example = await readFile(join(FIXTURES_DIR, 'seed/progress-myfeature.txt'), 'utf8');
    expect(example.startsWith(progressFileHeader('myfeature', 'npm test && npm run build'))).toBe(
      true,
    );
  });
});

describe('ensureProgressFile()', () => {
  it('creates the file and its directories with the header', async () => {
    const file = join(dir.path, '.claude', 'loop-progress', 'progress-s.txt');
    expect(await ensureProgressFile(file, 's', { verify: 'make test' })).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(progressFileHeader('s', 'make test'));
    expect(await readdir(join(dir.path, '.claude', 'loop-progress'))).toEqual(['progress-s.txt']);
  });

  it('never overwrites an existing file', async () => {
    const file = join(dir.path, 'progress-s.txt');
    await writeFile(file, 'notes of an agent\n');
    expect(await ensureProgressFile(file, 's')).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('notes of an agent\n');
  });

  it('creates the file once when called many times at once', async () => {
    const file = join(dir.path, 'progress-s.txt');
    const created = await Promise.all(
      Array.from({ length: 10 }, () => ensureProgressFile(file, 's')),
    );
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await readdir(dir.path)).toEqual(['progress-s.txt']);
  });

  it('falls back to a checked rename where hard links do not work', async () => {
    const file = join(dir.path, 'progress-s.txt');
    const noLinks = {
      ...nodeFs,
      link: async () => {
        throw Object.assign(new Error('no links'), { code: 'EPERM' });
      },
    };
    expect(await ensureProgressFile(file, 's', { fs: noLinks })).toBe(true);
    expect(await ensureProgressFile(file, 's', { fs: noLinks })).toBe(false);
    expect(await readdir(dir.path)).toEqual(['progress-s.txt']);
  });

  it('throws SESSIONS_IO naming the file when it cannot be created', async () => {
    await writeFile(join(dir.path, 'blocker'), '');
    const file = join(dir.path, 'blocker', 'progress-s.txt');
    await expect(ensureProgressFile(file, 's')).rejects.toMatchObject({
      code: 'SESSIONS_IO',
      details: { file },
    });
  });
});

describe('progressEntries()', () => {
  it("splits the seed's example into its entries", async () => {
    const example = await readFile(join(FIXTURES_DIR, 'seed/progress-myfeature.txt'), 'utf8');
    const entries = progressEntries(example);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatch(/^## 2025-01-10 - beads-123\n- Implemented user authentication/);
    expect(entries[1]).toMatch(/^## 2025-01-10 - beads-124\n/);
    expect(entries[1]).toMatch(/real SMTP$/);
  });

  it('has no entries in a fresh file or one without a separator', () => {
    expect(progressEntries(progressFileHeader('s'))).toEqual([]);
    expect(progressEntries('# Progress: s\nno separator')).toEqual([]);
  });

  it('keeps an entry not yet closed by ---, and drops empty ones', () => {
    const text = `${progressFileHeader('s')}\n---\n## one\n---\n\n## two\n`;
    expect(progressEntries(text)).toEqual(['## one', '## two']);
  });
});
