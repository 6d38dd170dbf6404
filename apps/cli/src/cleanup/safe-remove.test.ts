import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { reachableInside, removeEmptyParents, removeInside } from './safe-remove.js';

describe('removeInside()', () => {
  it('unlinks a symlink to a directory outside, leaving the directory and its files', async () => {
    await using dir = await makeTempDir('hw-safe-remove-');
    const root = join(dir.path, 'execution');
    const outside = join(dir.path, 'precious');
    mkdirSync(join(root, 'agentRoot'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'mine');
    symlinkSync(outside, join(root, 'agentRoot', 'link'));
    expect(removeInside(root, join(root, 'agentRoot', 'link'))).toMatchObject({ removed: 'link' });
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('removes a directory without entering the symlinks inside it', async () => {
    await using dir = await makeTempDir('hw-safe-remove-');
    const root = join(dir.path, 'execution');
    const outside = join(dir.path, 'precious');
    mkdirSync(join(root, 'notes', 'deep'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'mine');
    writeFileSync(join(root, 'notes', 'deep', 'a.md'), 'a');
    symlinkSync(outside, join(root, 'notes', 'deep', 'escape'));
    symlinkSync(join(outside, 'keep.txt'), join(root, 'notes', 'file-link'));
    expect(removeInside(root, join(root, 'notes'))).toMatchObject({
      removed: 'directory',
      entries: 5,
    });
    expect(existsSync(join(root, 'notes'))).toBe(false);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a path whose parent is a symlink leading out of the execution', async () => {
    await using dir = await makeTempDir('hw-safe-remove-');
    const root = join(dir.path, 'execution');
    const outside = join(dir.path, 'precious');
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'mine');
    symlinkSync(outside, join(root, 'notes'));
    const path = join(root, 'notes', 'keep.txt');
    expect(reachableInside(root, path)).toBe(false);
    expect(removeInside(root, path)).toEqual({
      path,
      removed: false,
      reason: 'outside the execution',
    });
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
    // Lexically outside, or the root itself: refused too.
    expect(removeInside(root, join(root, '..', 'precious')).removed).toBe(false);
    expect(removeInside(root, root).removed).toBe(false);
  });
});

describe('removeEmptyParents()', () => {
  it('removes the folders left empty, up to the execution, and stops at one that is not', async () => {
    await using dir = await makeTempDir('hw-safe-remove-');
    const root = join(dir.path, 'execution');
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(join(root, 'a', 'other.txt'), 'x');
    removeEmptyParents(join(root, 'a', 'b', 'c'), root);
    expect(existsSync(join(root, 'a', 'b'))).toBe(false);
    expect(existsSync(join(root, 'a', 'other.txt'))).toBe(true);
  });
});
