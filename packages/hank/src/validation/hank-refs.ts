import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join, posix } from 'node:path';

/** Why a file reference was refused, or undefined when it is fine. */
export interface RefProblem {
  code:
    | 'invalid_path'
    | 'escapes_hank'
    | 'symlink'
    | 'missing_file'
    | 'not_regular'
    | 'special_file';
  message: string;
}

const MEGABYTE = 1024 * 1024;

/**
 * Checks the shape of a reference without touching the disk: a portable, relative POSIX path
 * (reference §1.1 "Strict references").
 */
export function checkRefSyntax(ref: string): RefProblem | undefined {
  if (ref.includes('\0')) return { code: 'invalid_path', message: 'contains a NUL byte' };
  if (ref.includes('\\')) {
    return { code: 'invalid_path', message: 'uses a backslash; write paths with forward slashes' };
  }
  if (ref.startsWith('/')) {
    return {
      code: 'invalid_path',
      message: 'is absolute; write it relative to the hank directory',
    };
  }
  if (/^[a-zA-Z]:/.test(ref)) {
    return {
      code: 'invalid_path',
      message: 'has a drive letter; write it relative to the hank directory',
    };
  }
  return undefined;
}

/**
 * Resolves `ref` (relative to `baseDir`, itself relative to the hank root) to a path inside the
 * hank root, refusing any step that climbs above the root or passes through a symlink.
 * Returns the absolute path, or a problem.
 */
export function resolveRef(
  hankRoot: string,
  baseDir: string,
  ref: string,
): { path: string; stats: Stats } | RefProblem {
  const syntax = checkRefSyntax(ref);
  if (syntax) return syntax;
  const segments: string[] = baseDir === '' || baseDir === '.' ? [] : baseDir.split('/');
  const parts = ref.split('/').filter((part) => part !== '' && part !== '.');
  for (const [index, part] of parts.entries()) {
    if (part === '..') {
      if (segments.length === 0) {
        return { code: 'escapes_hank', message: 'climbs above the hank directory' };
      }
      segments.pop();
      continue;
    }
    segments.push(part);
    const absolute = join(hankRoot, ...segments);
    let stats: Stats;
    try {
      stats = lstatSync(absolute);
    } catch {
      return { code: 'missing_file', message: `does not exist (looked for ${absolute})` };
    }
    if (stats.isSymbolicLink()) {
      return {
        code: 'symlink',
        message: `passes through the symlink ${posix.join(...segments)}; hank files must be real files`,
      };
    }
    if (index === parts.length - 1) return { path: absolute, stats };
  }
  return { path: join(hankRoot, ...segments), stats: lstatSync(join(hankRoot, ...segments)) };
}

/** Checks that a reference names a regular file; returns a problem or the file's size. */
export function checkFileRef(
  hankRoot: string,
  baseDir: string,
  ref: string,
): { path: string; size: number } | RefProblem {
  const resolved = resolveRef(hankRoot, baseDir, ref);
  if ('code' in resolved) return resolved;
  if (!resolved.stats.isFile()) {
    return { code: 'not_regular', message: `is not a regular file (${describe(resolved.stats)})` };
  }
  return { path: resolved.path, size: resolved.stats.size };
}

/**
 * What a rig copy of `from` meets after its ignore rules: links, special files and unreadable
 * directories, each relative to the hank root. Injected (the rules live in `@hankweave/files`).
 */
export type CopyTreeInspector = (
  hankRoot: string,
  from: string,
) => {
  readonly links: readonly string[];
  readonly special: readonly string[];
  readonly unreadable: readonly string[];
};

/**
 * Checks a rig copy source: a regular file, or a directory tree holding only regular files and
 * directories (after the copy's ignore rules, when `inspect` is given), and never the hank
 * directory itself.
 */
export function checkTreeRef(
  hankRoot: string,
  ref: string,
  inspect?: CopyTreeInspector,
): RefProblem | undefined {
  const resolved = resolveRef(hankRoot, '', ref);
  if ('code' in resolved) return resolved;
  if (resolved.path === hankRoot) {
    return { code: 'invalid_path', message: 'is the hank directory itself; copy a subdirectory' };
  }
  if (resolved.stats.isFile()) return undefined;
  if (!resolved.stats.isDirectory()) {
    return {
      code: 'not_regular',
      message: `is not a file or directory (${describe(resolved.stats)})`,
    };
  }
  if (inspect) {
    let seen: ReturnType<CopyTreeInspector>;
    try {
      seen = inspect(hankRoot, ref);
    } catch (error) {
      return { code: 'not_regular', message: `cannot be listed (${(error as Error).message})` };
    }
    const [link] = seen.links;
    if (link !== undefined) {
      return {
        code: 'symlink',
        message: `contains the symlink ${link}; copy real files only, or list it in the hank's .gitignore`,
      };
    }
    const [special] = seen.special;
    if (special !== undefined)
      return { code: 'special_file', message: `contains ${special}, which is not a regular file` };
    const [unreadable] = seen.unreadable;
    if (unreadable !== undefined)
      return { code: 'not_regular', message: `contains ${unreadable}, which cannot be read` };
    return undefined;
  }
  const pending = [resolved.path];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // An unreadable directory (EACCES) is a finding, not a crash of validation.
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      return { code: 'not_regular', message: `contains ${dir}, which cannot be read (${code})` };
    }
    for (const entry of entries) {
      const child = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else if (entry.isSymbolicLink()) {
        return { code: 'symlink', message: `contains the symlink ${child}; copy real files only` };
      } else if (!entry.isFile()) {
        return { code: 'special_file', message: `contains ${child}, which is not a regular file` };
      }
    }
  }
  return undefined;
}

/** Warns about prompt files that are empty or suspiciously large (reference §1.11). */
export function promptSizeWarning(size: number): string | undefined {
  if (size === 0) return 'is empty';
  if (size > MEGABYTE)
    return `is ${(size / MEGABYTE).toFixed(1)} MB; prompts over 1 MB are unusual`;
  return undefined;
}

function describe(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}
