import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTree } from '../test/helpers/tree.js';
import { buildFileTree } from './build-file-tree.js';
import type { FilesWarning } from './errors.js';

afterEach(cleanupTempDirs);

describe('buildFileTree()', () => {
  it('reads mtimes from disk, symlinks not followed, and leaves out vanished files with a warning', async () => {
    const { path: root } = await makeTempDir('hankweave-files-');
    writeTree(root, { 'a.txt': '', link: { link: 'nowhere' } });
    const warnings: FilesWarning[] = [];
    const tree = buildFileTree(['a.txt', 'gone.txt', 'link'], {
      root,
      onWarning: (warning) => warnings.push(warning),
    });
    expect(tree.map((node) => node.path)).toEqual(['a.txt', 'link']);
    const { mtimeNs } = lstatSync(join(root, 'link'), { bigint: true });
    expect(tree[1]?.lastModified).toBe(new Date(Number(mtimeNs / 1_000_000n)).toISOString());
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'FILES_NOT_FOUND', path: 'gone.txt' }),
    ]);
  });
});
