import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';

// Random file operations for property tests of watched scans (`@hankweave/files/testing`): the ones that lose inotify
// events when handled naively (new directories filled before their watch exists, trees moved in
// and out, directories replaced by files), and symlinks, fifos, mode changes, .gitignore edits.
export const DIRS = ['a', 'b', 'a/c', 'a/c/e', 'b/d'];
export const FILES = ['x.ts', 'y.log', 'keep.log', 'z.md'];
export const PATHS = [...FILES, ...DIRS.flatMap((dir) => FILES.map((file) => `${dir}/${file}`))];
const IGNORE_RULES = ['*.log', '!keep.log', 'c/', 'd/', 'e'];

export type Op =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'replace-then-remove'; from: string; to: string; after: 'unlink' | 'move-back' }
  | { kind: 'write-via-temp'; path: string; remove: boolean }
  | { kind: 'fill-new-dir'; dir: string; files: string[] }
  | { kind: 'move-in'; dir: string }
  | { kind: 'move-out'; dir: string }
  | { kind: 'rm-dir'; dir: string }
  | { kind: 'dir-to-file'; dir: string }
  | { kind: 'symlink'; path: string; target: string }
  | { kind: 'chmod'; path: string; exec: boolean }
  | { kind: 'fifo'; path: string }
  | { kind: 'gitignore'; dir: string; rules: string[] };

export const fileOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      path: fc.constantFrom(...PATHS),
      // Same-length contents: a rewrite the stat may not tell apart.
      content: fc.constantFrom('one', 'two', 'three', ''),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...PATHS) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      from: fc.constantFrom(...PATHS, ...DIRS),
      to: fc.constantFrom(...PATHS, ...DIRS),
    }),
  },
  {
    // A file renamed over another and then removed, at once: a watcher that merges a path's
    // events in batches turns the overwritten file's create and delete into nothing.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replace-then-remove' as const),
      from: fc.constantFrom(...PATHS),
      to: fc.constantFrom(...PATHS),
      after: fc.constantFrom('unlink' as const, 'move-back' as const),
    }),
  },
  {
    // An editor's atomic save (a temporary file renamed into place), sometimes deleted at once.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('write-via-temp' as const),
      path: fc.constantFrom(...PATHS),
      remove: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fill-new-dir' as const),
      dir: fc.constantFrom(...DIRS, 'n', 'n/m/o'),
      files: fc.subarray(FILES, { minLength: 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('move-in' as const),
      dir: fc.constantFrom(...DIRS, 'n'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('move-out' as const), dir: fc.constantFrom(...DIRS) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('rm-dir' as const), dir: fc.constantFrom(...DIRS) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dir-to-file' as const),
      dir: fc.constantFrom(...DIRS),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('symlink' as const),
      path: fc.constantFrom(...PATHS, ...DIRS),
      target: fc.constantFrom('a', 'x.ts', '../outside', 'missing'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('chmod' as const),
      path: fc.constantFrom(...PATHS),
      exec: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('fifo' as const), path: fc.constantFrom(...PATHS) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('gitignore' as const),
      dir: fc.constantFrom('', 'a', 'a/c'),
      rules: fc.subarray(IGNORE_RULES),
    }),
  },
);

/**
 * Writes a file without blocking: opening a fifo (a `fifo` step may have made one) for writing
 * would wait for a reader forever; without one it fails (ENXIO), and the step is a no-op.
 */
function write(path: string, content: string): void {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;
  const fd = openSync(path, flags, 0o644);
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** Every operation tolerates a missing source or an occupied target, as a shell would fail. */
export function applyFileOp(root: string, outside: string, op: Op): void {
  const at = (path: string) => join(root, path);
  const tryIt = (fn: () => void) => {
    try {
      fn();
    } catch {
      // The operation did not apply to this tree (ENOENT, EISDIR, ENOTDIR...): a no-op.
    }
  };
  switch (op.kind) {
    case 'write':
      tryIt(() => write(at(op.path), op.content));
      break;
    case 'delete':
      tryIt(() => rmSync(at(op.path)));
      break;
    case 'rename':
      tryIt(() => renameSync(at(op.from), at(op.to)));
      break;
    case 'replace-then-remove':
      tryIt(() => {
        renameSync(at(op.from), at(op.to));
        if (op.after === 'unlink') rmSync(at(op.to));
        else renameSync(at(op.to), at(op.from));
      });
      break;
    case 'write-via-temp':
      tryIt(() => {
        const temp = at(`${op.path}.tmp~`);
        write(temp, 'saved');
        renameSync(temp, at(op.path));
        if (op.remove) rmSync(at(op.path));
      });
      break;
    case 'fill-new-dir':
      // Created and filled at once: files land before any watch on the new directory exists.
      tryIt(() => {
        mkdirSync(at(op.dir), { recursive: true });
        for (const file of op.files) write(at(`${op.dir}/${file}`), `new ${file}`);
        mkdirSync(at(`${op.dir}/deep/er`), { recursive: true });
        writeFileSync(at(`${op.dir}/deep/er/f.ts`), 'deep');
      });
      break;
    case 'move-in':
      tryIt(() => {
        const staged = join(outside, `staged-${op.dir.replaceAll('/', '_')}`);
        rmSync(staged, { recursive: true, force: true });
        mkdirSync(join(staged, 'sub/subsub'), { recursive: true });
        writeFileSync(join(staged, 'in.ts'), 'in');
        writeFileSync(join(staged, 'sub/subsub/in.md'), 'in');
        mkdirSync(dirname(at(op.dir)), { recursive: true });
        renameSync(staged, at(op.dir));
      });
      break;
    case 'move-out':
      tryIt(() => {
        const away = join(outside, `away-${Math.random().toString(36).slice(2)}`);
        renameSync(at(op.dir), away);
      });
      break;
    case 'rm-dir':
      tryIt(() => rmSync(at(op.dir), { recursive: true }));
      break;
    case 'dir-to-file':
      tryIt(() => {
        renameSync(at(op.dir), join(outside, `gone-${Math.random().toString(36).slice(2)}`));
        writeFileSync(at(op.dir), 'was a directory');
      });
      break;
    case 'symlink':
      tryIt(() => symlinkSync(op.target, at(op.path)));
      break;
    case 'chmod':
      tryIt(() => {
        if (lstatSync(at(op.path)).isFile()) chmodSync(at(op.path), op.exec ? 0o755 : 0o644);
      });
      break;
    case 'fifo': {
      // A named pipe: listed by a tree listing, never by a resolve (git skips it too).
      const made = spawnSync('mkfifo', [at(op.path)]);
      if (made.error) throw made.error;
      break;
    }
    case 'gitignore':
      tryIt(() =>
        writeFileSync(at(`${op.dir ? `${op.dir}/` : ''}.gitignore`), op.rules.join('\n')),
      );
      break;
  }
}
