import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendCompletion, type CompletionRecord, readCompletions } from './completions.js';
import { sessionLayout } from './layout.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('sessions-completions-');
});
afterEach(() => dir.cleanup());

const completion = (session: string, fields: Partial<CompletionRecord> = {}): CompletionRecord => ({
  session,
  type: 'loop',
  status: 'completed',
  at: '2025-01-10T10:00:00Z',
  reason: 'plateau',
  iterations: 3,
  ...fields,
});

describe('appendCompletion()', () => {
  it('creates the log and appends records in order', async () => {
    await appendCompletion(dir.path, completion('a'));
    await appendCompletion(dir.path, completion('b', { type: 'pipeline', status: 'failed' }));
    const file = sessionLayout(dir.path).completionsFile;
    const raw = JSON.parse(await readFile(file, 'utf8'));
    expect(raw.completions.map((entry: CompletionRecord) => entry.session)).toEqual(['a', 'b']);
    expect(await readCompletions(dir.path)).toEqual([
      completion('a'),
      completion('b', { type: 'pipeline', status: 'failed' }),
    ]);
  });

  it('loses no record when appends run at once', async () => {
    await Promise.all(
      Array.from({ length: 25 }, (_, index) => appendCompletion(dir.path, completion(`s${index}`))),
    );
    expect(await readCompletions(dir.path)).toHaveLength(25);
  });

  it('moves an unparseable log aside with a warning and starts a new one', async () => {
    const warnings: string[] = [];
    await mkdir(join(dir.path, '.claude'));
    await writeFile(sessionLayout(dir.path).completionsFile, '{"completions": [');
    await appendCompletion(dir.path, completion('a'), {
      onWarning: (message) => warnings.push(message),
    });
    expect(await readCompletions(dir.path)).toEqual([completion('a')]);
    expect(warnings).toHaveLength(1);
    const names = await readdir(join(dir.path, '.claude'));
    expect(names.some((name) => name.startsWith('loop-completions.json.corrupt-'))).toBe(true);
  });
});

describe('readCompletions()', () => {
  it('is empty when there is no log', async () => {
    expect(await readCompletions(dir.path)).toEqual([]);
  });

  it('skips entries that are not records and keeps extra fields', async () => {
    await mkdir(join(dir.path, '.claude'));
    await writeFile(
      sessionLayout(dir.path).completionsFile,
      JSON.stringify({
        completions: [completion('a', { cost: 1.5 }), 'junk', { session: 'b' }, completion('c')],
      }),
    );
    const records = await readCompletions(dir.path);
    expect(records.map((record) => record.session)).toEqual(['a', 'c']);
    expect(records[0]?.cost).toBe(1.5);
  });

  it('throws SESSIONS_CORRUPT_FILE for a file that is not a log', async () => {
    await mkdir(join(dir.path, '.claude'));
    await writeFile(sessionLayout(dir.path).completionsFile, '{"completions": {}}');
    await expect(readCompletions(dir.path)).rejects.toMatchObject({
      code: 'SESSIONS_CORRUPT_FILE',
    });
  });
});
