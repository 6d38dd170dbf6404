import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createFaultyFs, makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { UnifiedFileResolver } from '@hankweave/files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CopyOutputsOptions,
  copyOutputs,
  MAX_RENAME_TRIES,
  OutputCopyFailure,
  renamedPath,
} from './copy-outputs.js';

let dir: TempDir;
let agentRoot: string;
let out: string;

const write = (root: string, path: string, content: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};
const copy = (globs: string[], extra: Partial<CopyOutputsOptions> = {}) =>
  copyOutputs({
    agentRoot,
    outputDirectory: out,
    globs,
    resolver: new UnifiedFileResolver(),
    overwrite: false,
    now: () => 1700000000000,
    ...extra,
  });
/** Every file under `root`, relative, sorted. */
const files = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();

beforeEach(async () => {
  dir = await makeTempDir('outputs-');
  agentRoot = join(dir.path, 'agentRoot');
  out = join(dir.path, 'out');
  mkdirSync(agentRoot);
});
afterEach(() => dir.cleanup());

describe('copyOutputs', () => {
  it('copies what the globs match, keeping paths relative to agentRoot', async () => {
    write(agentRoot, 'report/survey.md', '# survey\n');
    write(agentRoot, 'report/data/table.csv', 'a,b\n');
    write(agentRoot, 'report/notes.txt', 'notes');
    write(agentRoot, 'top.md', 'top');
    const result = await copy(['report/**/*.md', 'report/data/', '*.md', 'missing/*.pdf']);
    expect(files(out)).toEqual(['report/data/table.csv', 'report/survey.md', 'top.md']);
    expect(readFileSync(join(out, 'report/survey.md'), 'utf8')).toBe('# survey\n');
    expect(result.renamed).toEqual([]);
    expect(result.unmatched).toEqual(['missing/*.pdf']);
    expect(result.copied.map((entry) => entry.destination).sort()).toEqual([
      'report/data/table.csv',
      'report/survey.md',
      'top.md',
    ]);
  });

  it('renames a file whose name is taken to name_<counter>_<timestamp>.ext', async () => {
    write(agentRoot, 'report/survey.md', 'new');
    write(agentRoot, 'README', 'new readme');
    write(out, 'report/survey.md', 'old');
    write(out, 'report/survey_1_1700000000000.md', 'older');
    write(out, 'README', 'old readme');
    const result = await copy(['report/survey.md', 'README']);
    expect(result.renamed).toEqual([
      { original: 'report/survey.md', resolved: 'report/survey_2_1700000000000.md' },
      { original: 'README', resolved: 'README_1_1700000000000' },
    ]);
    expect(readFileSync(join(out, 'report/survey.md'), 'utf8')).toBe('old');
    expect(readFileSync(join(out, 'report/survey_1_1700000000000.md'), 'utf8')).toBe('older');
    expect(readFileSync(join(out, 'report/survey_2_1700000000000.md'), 'utf8')).toBe('new');
    expect(readFileSync(join(out, 'README_1_1700000000000'), 'utf8')).toBe('new readme');
    // No temporary file is left behind.
    expect(files(out).filter((name) => name.endsWith('.hw-tmp'))).toEqual([]);
  });

  it('overwrites with overwrite: true', async () => {
    write(agentRoot, 'a.txt', 'new');
    write(out, 'a.txt', 'old');
    const result = await copy(['a.txt'], { overwrite: true });
    expect(result.renamed).toEqual([]);
    expect(files(out)).toEqual(['a.txt']);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('new');
  });

  it(`fails naming the file after ${MAX_RENAME_TRIES} taken names`, async () => {
    write(agentRoot, 'a.txt', 'new');
    write(out, 'a.txt', 'old');
    for (let counter = 1; counter <= MAX_RENAME_TRIES; counter++)
      write(out, `a_${counter}_1700000000000.txt`, 'taken');
    const error = await copy(['a.txt']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputCopyFailure);
    expect((error as OutputCopyFailure).file).toBe('a.txt');
    expect(files(out)).toHaveLength(MAX_RENAME_TRIES + 1);
  });

  it('falls back to check-then-rename where hard links are not supported', async () => {
    write(agentRoot, 'a.txt', 'new');
    write(out, 'a.txt', 'old');
    const fs = createFaultyFs({ failAt: 'link', code: 'EPERM', times: Number.POSITIVE_INFINITY });
    const result = await copy(['a.txt'], { fs });
    expect(result.renamed).toEqual([{ original: 'a.txt', resolved: 'a_1_1700000000000.txt' }]);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('old');
    expect(readFileSync(join(out, 'a_1_1700000000000.txt'), 'utf8')).toBe('new');
  });

  it('a failing copy throws OutputCopyFailure naming the file and leaves no temporary file', async () => {
    write(agentRoot, 'a.txt', 'a');
    write(agentRoot, 'b.txt', 'b');
    const fs = createFaultyFs({ failAt: 'copyFile', after: 1, code: 'ENOSPC' });
    const error = await copy(['*.txt'], { fs }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputCopyFailure);
    expect((error as OutputCopyFailure).file).toBe('b.txt');
    expect(files(out)).toEqual(['a.txt']);
  });

  it('never copies the data link, ignored files, or symlinks leading out of agentRoot', async () => {
    const data = join(dir.path, 'data');
    write(data, 'secret.txt', 'user data');
    symlinkSync(data, join(agentRoot, 'read_only_data_source'));
    write(agentRoot, '.gitignore', 'build/\n');
    write(agentRoot, 'build/out.bin', 'ignored');
    write(agentRoot, 'kept.txt', 'kept');
    symlinkSync(join(data, 'secret.txt'), join(agentRoot, 'escape.txt'));
    symlinkSync(join(agentRoot, 'kept.txt'), join(agentRoot, 'alias.txt'));
    symlinkSync('read_only_data_source/secret.txt', join(agentRoot, 'via-data.txt'));
    const result = await copy(['**/*.txt', 'read_only_data_source/**', 'build/**']);
    expect(files(out)).toEqual(['alias.txt', 'kept.txt']);
    expect(readFileSync(join(out, 'alias.txt'), 'utf8')).toBe('kept');
    expect(result.skipped.map((entry) => entry.path).sort()).toEqual([
      'escape.txt',
      'via-data.txt',
    ]);
    expect(result.unmatched).toEqual(['read_only_data_source/**', 'build/**']);
  });

  it('copies a file matched by two globs once', async () => {
    write(agentRoot, 'a.md', 'a');
    const copied = new Set<string>();
    const first = await copy(['*.md', 'a.md'], { alreadyCopied: copied });
    const second = await copy(['a.md'], { alreadyCopied: copied });
    expect(first.copied).toHaveLength(1);
    expect(second.copied).toHaveLength(0);
    expect(files(out)).toEqual(['a.md']);
  });

  it('fails when the output directory cannot hold the file', async () => {
    write(agentRoot, 'report/a.md', 'a');
    write(dir.path, 'out/report', 'a file where a directory is needed');
    const error = await copy(['report/a.md']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputCopyFailure);
    expect((error as OutputCopyFailure).file).toBe('report/a.md');
    expect(existsSync(join(out, 'report/a.md'))).toBe(false);
  });
});

describe('renamedPath', () => {
  it.each([
    ['a.txt', 'a_3_42.txt'],
    ['dir/sub/report.final.md', 'dir/sub/report.final_3_42.md'],
    ['Makefile', 'Makefile_3_42'],
    ['.env', '.env_3_42'],
    ['dir/.config.json', 'dir/.config_3_42.json'],
  ])('%s → %s', (path, expected) => {
    expect(renamedPath(path, 3, 42)).toBe(expected);
  });
});
