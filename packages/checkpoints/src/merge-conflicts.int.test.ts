import { afterEach, describe, expect, it } from 'vitest';
import { cleanupExecutions, makeExecution } from '../test/helpers.js';
import {
  commitAndRestore,
  lines,
  makeBranches,
  read,
  scenario,
  ten,
} from '../test/merge-helpers.js';

afterEach(cleanupExecutions);

describe('CheckpointEngine', () => {
  describe('merge() conflicts', () => {
    it('reports a content conflict with both sides and diff3 markers naming the branches', async () => {
      const { result } = await scenario(
        { 'f.txt': ten },
        {
          left: { 'f.txt': ten.replace('5\n', 'left\n').replace('1\n', 'one\n') },
          right: { 'f.txt': ten.replace('5\n', 'right\n') },
        },
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const [conflict] = result.conflicts;
      expect(conflict).toMatchObject({
        path: 'f.txt',
        kind: 'content',
        sides: [
          { branch: 'left', sha: expect.any(String), mode: '100644' },
          { branch: 'right', sha: expect.any(String), mode: '100644' },
        ],
      });
      expect(conflict?.text).toBe(
        lines(
          'one',
          '2',
          '3',
          '4',
          '<<<<<<< left',
          'left',
          '||||||| base',
          '5',
          '=======',
          'right',
          '>>>>>>> right',
          '6',
          '7',
          '8',
          '9',
          '10',
        ),
      );
    });

    it('lets the first branch win under ordered and keeps the clean hunks of the others', async () => {
      const { x, engine, result, shas } = await scenario(
        { 'f.txt': ten },
        {
          left: { 'f.txt': ten.replace('5\n', 'left\n') },
          right: { 'f.txt': ten.replace('5\n', 'right\n').replace('9\n', 'nine\n') },
        },
        'ordered',
      );
      expect(result).toMatchObject({
        ok: true,
        changed: ['f.txt'],
        resolved: [{ path: 'f.txt', kind: 'content', winner: 'left', others: ['right'] }],
      });
      await commitAndRestore(x, engine, result, shas);
      expect(read(x, 'f.txt')).toBe(ten.replace('5\n', 'left\n').replace('9\n', 'nine\n'));
    });

    it('reports add-add, modify-delete, binary, symlink and mode conflicts', async () => {
      const binary = (byte: number) => Buffer.from([1, 0, 2, byte]);
      const { result } = await scenario(
        {
          'mod-del.txt': 'base\n',
          'bin.dat': binary(1),
          link: { link: 'x' },
        },
        {
          one: {
            'added.txt': 'one\n',
            'mod-del.txt': 'changed\n',
            'bin.dat': binary(2),
            link: { link: 'y' },
            'tool.sh': { content: 'same\n', mode: 0o755 },
          },
          two: {
            'added.txt': 'two\n',
            'mod-del.txt': null,
            'bin.dat': binary(3),
            link: { link: 'z' },
            'tool.sh': { content: 'same\n', mode: 0o644 },
          },
        },
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const kinds = Object.fromEntries(result.conflicts.map((c) => [c.path, c.kind]));
      expect(kinds).toEqual({
        'added.txt': 'add-add',
        'bin.dat': 'binary',
        link: 'content',
        'mod-del.txt': 'modify-delete',
        'tool.sh': 'mode',
      });
      const modDel = result.conflicts.find((c) => c.path === 'mod-del.txt');
      expect(modDel?.sides).toEqual([
        { branch: 'one', sha: expect.any(String), mode: '100644' },
        { branch: 'two', sha: null, mode: null },
      ]);
      expect(result.conflicts.find((c) => c.path === 'added.txt')?.text).toContain('<<<<<<< one');
      expect(result.conflicts.find((c) => c.path === 'link')?.text).toBeUndefined();
      expect(result.conflicts.find((c) => c.path === 'bin.dat')?.text).toBeUndefined();
    });

    it('reports type conflicts: file against symlink, file against directory', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const made = await makeBranches(
        x,
        engine,
        { 'f.txt': 'f\n', 'd.txt': 'd\n' },
        {
          one: { 'f.txt': { link: 'elsewhere' }, 'd.txt': 'changed\n' },
          two: { 'f.txt': 'edited\n', 'd.txt': null, 'd.txt/inner.txt': 'inner\n' },
        },
      );
      const result = await engine.merge({
        base: made.base,
        branches: [
          { name: 'one', ref: made.shas.one as string },
          { name: 'two', ref: made.shas.two as string },
        ],
        policy: 'fail',
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.conflicts.map((c) => [c.path, c.kind])).toEqual([
        ['d.txt', 'type'],
        ['f.txt', 'type'],
      ]);
      expect(result.conflicts[0]?.sides).toEqual([
        { branch: 'one', sha: expect.any(String), mode: '100644' },
        { branch: 'two', sha: expect.any(String), mode: '40000' },
      ]);
      const ordered = await engine.merge({
        base: made.base,
        branches: [
          { name: 'one', ref: made.shas.one as string },
          { name: 'two', ref: made.shas.two as string },
        ],
        policy: 'ordered',
      });
      expect(ordered).toMatchObject({
        ok: true,
        resolved: [
          { path: 'd.txt', kind: 'type', winner: 'one', others: ['two'] },
          { path: 'f.txt', kind: 'type', winner: 'one', others: ['two'] },
        ],
      });
    });

    it('writes nothing with fail: no object, ref, HEAD or work-tree change', async () => {
      const x = makeExecution();
      const engine = await x.open();
      const made = await makeBranches(
        x,
        engine,
        { 'f.txt': ten },
        {
          left: { 'f.txt': ten.replace('5\n', 'L\n') },
          right: { 'f.txt': ten.replace('5\n', 'R\n') },
        },
      );
      const snapshot = () => ({
        objects: x.git('count-objects', '-v'),
        refs: x.git('for-each-ref'),
        head: x.git('rev-parse', 'HEAD'),
        file: read(x, 'f.txt'),
      });
      const before = snapshot();
      const result = await engine.merge({
        base: made.base,
        branches: [
          { name: 'left', ref: made.shas.left as string },
          { name: 'right', ref: made.shas.right as string },
        ],
        policy: 'fail',
      });
      expect(result.ok).toBe(false);
      expect(snapshot()).toEqual(before);
    });
  });
});
