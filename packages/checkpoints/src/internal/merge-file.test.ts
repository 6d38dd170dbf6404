import { describe, expect, it } from 'vitest';
import { isBinary, mergeText, splitLines } from './merge-file.js';

const labels = { ours: 'one', base: 'base', theirs: 'two' };
const b = (text: string) => Buffer.from(text, 'utf8');

describe('merge-file', () => {
  describe('splitLines()', () => {
    it('keeps terminators, CRLF and a last line without newline', () => {
      expect(splitLines(b('a\r\nb\nc'))).toEqual(['a\r\n', 'b\n', 'c']);
      expect(splitLines(b(''))).toEqual([]);
    });
  });

  describe('isBinary()', () => {
    it('finds a NUL byte only within the first 8000 bytes, as git', () => {
      expect(isBinary(Buffer.from([65, 0, 66]))).toBe(true);
      const late = Buffer.alloc(9000, 65);
      late[8500] = 0;
      expect(isBinary(late)).toBe(false);
    });
  });

  describe('mergeText()', () => {
    it('combines changes separated by an unchanged line', () => {
      const merged = mergeText(b('1\n2\n3\n'), b('one\n2\n3\n'), b('1\n2\nthree\n'), labels);
      expect(merged).toEqual({ clean: true, content: b('one\n2\nthree\n') });
    });

    it('conflicts on adjacent changes, as git does', () => {
      expect(mergeText(b('1\n2\n3\n'), b('one\n2\n3\n'), b('1\ntwo\n3\n'), labels).clean).toBe(
        false,
      );
    });

    it('does not conflict on identical changes', () => {
      expect(mergeText(b('1\n2\n'), b('x\n2\n'), b('x\n2\n'), labels)).toEqual({
        clean: true,
        content: b('x\n2\n'),
      });
    });

    it('keeps the bytes of non-UTF-8 text', () => {
      const base = Buffer.from([0xe9, 0x0a, 0x32, 0x0a, 0x33, 0x0a]);
      const ours = Buffer.from([0xff, 0x0a, 0x32, 0x0a, 0x33, 0x0a]);
      const theirs = Buffer.from([0xe9, 0x0a, 0x32, 0x0a, 0xfe, 0x0a]);
      const merged = mergeText(base, ours, theirs, labels);
      expect(merged).toEqual({ clean: true, content: Buffer.from([0xff, 10, 0x32, 10, 0xfe, 10]) });
    });

    it('stays fast on large, repetitive files (node-diff3 alone took ~1 min on 4,000 lines)', () => {
      const lines = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? '}\n' : '  x\n'));
      const edit = (at: number, value: string) =>
        b(lines.map((line, i) => (i === at ? value : line)).join(''));
      const started = performance.now();
      const merged = mergeText(b(lines.join('')), edit(10, 'one\n'), edit(19_990, 'two\n'), labels);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(merged.clean && merged.content.toString().split('\n')[10]).toBe('one');
      expect(mergeText(b(lines.join('')), edit(10, 'one\n'), edit(10, 'two\n'), labels).clean).toBe(
        false,
      );
    });

    it('marks a conflict diff3 style, on lines of their own, with the file line ending', () => {
      const merged = mergeText(b('a\r\nb\r\nc'), b('a\r\nb\r\nX'), b('a\r\nb\r\nY'), labels);
      expect(merged.clean).toBe(false);
      if (merged.clean) return;
      expect(merged.text).toBe(
        'a\r\nb\r\n<<<<<<< one\r\nX\r\n||||||| base\r\nc\r\n=======\r\nY\r\n>>>>>>> two\r\n',
      );
      // The `ordered` result: ours in the conflict, the rest of both sides.
      expect(merged.content.toString()).toBe('a\r\nb\r\nX');
    });
  });
});
