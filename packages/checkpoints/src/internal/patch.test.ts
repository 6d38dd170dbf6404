import { describe, expect, it } from 'vitest';
import { hashObject } from './objects.js';
import { formatPatch, quotePath } from './patch.js';

const side = (text: string, mode = 0o100644) => ({
  mode,
  oid: hashObject('blob', Buffer.from(text)),
  content: Buffer.from(text),
});

describe('quotePath()', () => {
  it('quotes like git: C escapes and octal for non-ASCII bytes', () => {
    expect(quotePath('a/', 'plain name.txt')).toBe('a/plain name.txt');
    expect(quotePath('a/', 'tab\there')).toBe('"a/tab\\there"');
    expect(quotePath('b/', 'é')).toBe('"b/\\303\\251"');
    expect(quotePath('a/', 'q"b\\')).toBe('"a/q\\"b\\\\"');
  });
});

describe('formatPatch()', () => {
  it('writes hunks with three lines of context and merges close changes', () => {
    const before = `${Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n')}\n`;
    const after = before.replace('l2\n', 'L2\n').replace('l8\n', 'L8\n').replace('l18\n', 'L18\n');
    const patch = formatPatch('f.txt', side(before), side(after), 3);
    expect(patch.split('\n').filter((line) => line.startsWith('@@'))).toEqual([
      '@@ -1,12 +1,12 @@',
      '@@ -16,5 +16,5 @@',
    ]);
  });

  it('marks a missing final newline and handles creation and deletion', () => {
    expect(formatPatch('n', side('a\nb'), side('a\nc'), 3)).toContain(
      '-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
    const created = formatPatch('new.txt', undefined, side('x\n'), 3);
    expect(created).toContain('new file mode 100644\n');
    expect(created).toContain('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\n');
    const deleted = formatPatch('old.txt', side('x\ny\n'), undefined, 3);
    expect(deleted).toContain('deleted file mode 100644\n');
    expect(deleted).toContain('@@ -1,2 +0,0 @@\n-x\n-y\n');
  });

  it('prints a mode-only change without hunks', () => {
    expect(formatPatch('run.sh', side('echo\n'), side('echo\n', 0o100755), 3)).toBe(
      'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n',
    );
  });
});
