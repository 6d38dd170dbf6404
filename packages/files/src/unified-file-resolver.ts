import type { BigIntStats } from 'node:fs';
import { errnoCode, type Fs, nodeFs } from '@hankweave/durable-io';
import { FilesError, type FilesWarning } from './errors.js';
import { createExcludedNameTest } from './internal/excluded-names.js';
import { GitignoreCache } from './internal/gitignore-cache.js';
import type { IgnoreLevel, IgnoreSource } from './internal/ignore-levels.js';
import type { ListingCache } from './internal/listing-cache.js';
import { absoluteRoot, toRootRelative } from './internal/paths.js';
import { type CompiledPatterns, compilePatterns, normalizePatterns } from './internal/patterns.js';
import { DEFAULT_RACY_WINDOW_MS, msToNs } from './internal/racy.js';
import { RecordedIgnores } from './internal/recorded-ignores.js';
import { type WalkContext, walk, walkAt } from './internal/walk.js';

/** Options of {@link UnifiedFileResolver}. */
export interface UnifiedFileResolverOptions {
  /**
   * The file system the walks go through; default the real one (`nodeFs`). Walks use only its
   * synchronous methods (`readdirSync`, `lstatSync`, `statSync`, `readFileSync`).
   */
  readonly fs?: Fs;
  /**
   * Match .gitignore rules and globs case-insensitively. Default false, which is git's default
   * on case-sensitive file systems (`core.ignorecase=false`); set it where git would set it true.
   */
  readonly ignoreCase?: boolean;
  /** More entry names to exclude at any depth, on top of {@link ALWAYS_EXCLUDED_NAMES}. */
  readonly excludeNames?: readonly string[];
  /** Called for every warning (unreadable directory or .gitignore...), as well as returned. */
  readonly onWarning?: (warning: FilesWarning) => void;
  /** How recent (ms) an mtime must be for its stat to be re-checked next time; default 2000. */
  readonly racyWindowMs?: number;
}

/** What {@link UnifiedFileResolver.resolveDetailed} returns. */
export interface ResolveResult {
  /** Sorted (git's byte order) POSIX paths relative to the root. */
  readonly paths: string[];
  /** Non-fatal problems met during the walk. */
  readonly warnings: FilesWarning[];
}

/** Options of {@link UnifiedFileResolver.listTree}. */
export interface ListTreeOptions {
  /**
   * Ignore rules to apply instead of the ones on disk: the `ignoreFiles` of an earlier
   * {@link TreeListing}. The walk then reads no ignore file, so what was ignored then is ignored
   * now, whatever has been written to, added as or deleted from a `.gitignore` since.
   */
  readonly ignoreFiles?: Readonly<Record<string, string>>;
}

/** What {@link UnifiedFileResolver.listTree} returns. */
export interface TreeListing {
  /** Files, symlinks, fifos, sockets and devices that no ignore rule or excluded name hides. */
  readonly files: string[];
  /** The directories entered (not ignored, not excluded, never through a symlink). */
  readonly directories: string[];
  /** Those of `files` that are fifos, sockets or devices (which `resolve` never lists). */
  readonly specials: string[];
  /**
   * The ignore files whose rules the walk applied: path relative to the root (`.gitignore`,
   * `src/.gitignore`, `.git/info/exclude`) → content, one char per byte (latin1 of the bytes).
   */
  readonly ignoreFiles: Record<string, string>;
  /** Non-fatal problems met during the walk. */
  readonly warnings: FilesWarning[];
}

interface Internals {
  readonly fs: Fs;
  readonly racyWindowNs: bigint;
  run(root: string, patterns: readonly string[], listings?: ListingCache): ResolveResult;
  /**
   * What {@link UnifiedFileResolver.resolve} would list at or below each of `roots` (paths
   * relative to the root, none below another), in no particular order.
   */
  resolveBelow(root: string, patterns: readonly string[], roots: readonly string[]): ResolveResult;
  /**
   * What {@link UnifiedFileResolver.listTree} would list at or below each of `roots` (paths
   * relative to the root, none below another; a root that is a listed directory is among
   * `directories`), with the ignore files applied on the way (its ancestors' too).
   */
  listBelow(root: string, roots: readonly string[]): TreeListing;
}

const internals = new WeakMap<UnifiedFileResolver, Internals>();

/** Package-internal access for the change scanner (shares this resolver's caches). */
export function resolverInternals(resolver: UnifiedFileResolver): Internals {
  return internals.get(resolver) as Internals;
}

const PATTERN_CACHE_SIZE = 64;

/**
 * Resolves tracked-file patterns under a root the way git would list them: micromatch globs,
 * negations over the whole result, .gitignore at every level with git's semantics (plus the
 * root's `.git/info/exclude`), always-excluded names, symlinks listed but never followed. Holds
 * the parsed .gitignore files and compiled globs between calls; keep one per runtime.
 */
export class UnifiedFileResolver {
  private readonly fs: Fs;
  private readonly ignoreCase: boolean;
  private readonly isExcludedName: (name: string) => boolean;
  private readonly gitignores: GitignoreCache;
  private readonly compiled = new Map<string, CompiledPatterns>();
  private readonly onWarning: ((warning: FilesWarning) => void) | undefined;

  constructor(options: UnifiedFileResolverOptions = {}) {
    this.fs = options.fs ?? nodeFs;
    this.ignoreCase = options.ignoreCase ?? false;
    this.isExcludedName = createExcludedNameTest(options.excludeNames);
    this.onWarning = options.onWarning;
    const racyWindowNs = msToNs(options.racyWindowMs ?? DEFAULT_RACY_WINDOW_MS);
    this.gitignores = new GitignoreCache(this.fs, this.ignoreCase, racyWindowNs);
    internals.set(this, {
      fs: this.fs,
      racyWindowNs,
      run: (root, patterns, listings) => this.run(root, patterns, listings),
      resolveBelow: (root, patterns, roots) => this.resolveBelow(root, patterns, roots),
      listBelow: (root, roots) => this.listBelow(root, roots),
    });
  }

  /**
   * Sorted POSIX paths, relative to `root`, of the regular files and symlinks that match.
   *
   * @throws {FilesError} FILES_INVALID_PATTERN, FILES_PATH_ESCAPES_ROOT for bad patterns.
   * @throws {FilesError} FILES_ROOT_NOT_FOUND when `root` is not a directory.
   * @throws {FilesError} FILES_UNREADABLE when `root` itself cannot be listed.
   */
  resolve(root: string, patterns: readonly string[]): string[] {
    return this.run(root, patterns).paths;
  }

  /** Like {@link resolve}, also returning the warnings (unreadable directories...). */
  resolveDetailed(root: string, patterns: readonly string[]): ResolveResult {
    return this.run(root, patterns);
  }

  /**
   * A test for single paths (absolute, or relative to `root`), e.g. the `file_path` of a tool
   * call: true when {@link resolve} would list that path if it were a file. Paths outside the
   * root, under a symlinked or excluded directory, or that are directories, give false.
   */
  createPathMatcher(root: string, patterns: readonly string[]): (path: string) => boolean {
    const rootAbs = absoluteRoot(root);
    const compiled = this.compile(rootAbs, patterns);
    return (path) => {
      let rel: string;
      try {
        rel = toRootRelative(rootAbs, path);
      } catch (error) {
        if (FilesError.is(error)) return false;
        throw error;
      }
      if (!compiled.matches(rel)) return false;
      const segments = rel.split('/');
      if (segments.some(this.isExcludedName)) return false;
      return this.matchAncestors(rootAbs, segments);
    };
  }

  /**
   * Everything under `root` that .gitignore rules (git's semantics) and the excluded names do
   * not hide: files of every kind and directories, never through a symlink, with the ignore
   * files that decided it. Listing again with the returned `ignoreFiles` answers "what is here
   * now that was not then" under the rules of then.
   *
   * @throws {FilesError} FILES_ROOT_NOT_FOUND when `root` is not a directory.
   * @throws {FilesError} FILES_UNREADABLE when `root` itself cannot be listed.
   */
  listTree(root: string, options: ListTreeOptions = {}): TreeListing {
    const rootAbs = absoluteRoot(root);
    this.assertDirectory(rootAbs);
    const applied = new Set<string>();
    const source: IgnoreSource = options.ignoreFiles
      ? new RecordedIgnores(options.ignoreFiles, this.ignoreCase)
      : this.recordingIgnores(applied);
    const { context, directories, specials, warnings } = this.listingContext(rootAbs, source);
    const files = walk(context);
    const ignoreFiles: Record<string, string> = {};
    if (options.ignoreFiles) Object.assign(ignoreFiles, options.ignoreFiles);
    Object.assign(ignoreFiles, this.textsOf(rootAbs, applied));
    return { files, directories, specials, ignoreFiles, warnings };
  }

  /**
   * What {@link resolve} would return for `patterns`, taken from a {@link listTree} result of
   * the same root instead of walking it again: one walk serves a checkpoint's file list and its
   * listing.
   */
  resolveListed(root: string, listing: TreeListing, patterns: readonly string[]): string[] {
    const compiled = this.compile(absoluteRoot(root), patterns);
    if (compiled.empty) return [];
    const specials = new Set(listing.specials);
    return listing.files.filter((path) => !specials.has(path) && compiled.matches(path));
  }

  /** Forgets parsed .gitignore files and compiled globs. */
  clearCache(): void {
    this.gitignores.clear();
    this.compiled.clear();
  }

  /** The rules of the root's `.git/info/exclude`: the level below every `.gitignore`. */
  private excludeLevel(
    rootAbs: string,
    prefix: string,
    warn: (warning: FilesWarning) => void,
  ): IgnoreLevel | undefined {
    return this.gitignores.levelFor(
      rootAbs,
      `${prefix}.git/info/exclude`,
      '.git/info/exclude',
      '',
      undefined,
      warn,
    );
  }

  private matchAncestors(rootAbs: string, segments: readonly string[]): boolean {
    const prefix = rootAbs.endsWith('/') ? rootAbs : `${rootAbs}/`;
    const warn = (warning: FilesWarning) => this.onWarning?.(warning);
    let level = this.excludeLevel(rootAbs, prefix, warn);
    let dirRel = '';
    for (let i = 0; i < segments.length; i++) {
      const name = segments[i] as string;
      const last = i === segments.length - 1;
      const fileRel = `${dirRel}.gitignore`;
      level = this.gitignores.levelFor(rootAbs, prefix + fileRel, fileRel, dirRel, level, warn);
      const stats = this.lstatOrUndefined(prefix + dirRel + name);
      if (last) {
        if (stats && !stats.isFile() && !stats.isSymbolicLink()) return false;
        return !level?.childTest(dirRel)(name, false);
      }
      // Walks never follow a symlinked directory, so nothing beneath one is ever listed.
      if (stats && !stats.isDirectory()) return false;
      if (level?.childTest(dirRel)(name, true)) return false;
      dirRel = `${dirRel}${name}/`;
    }
    return false;
  }

  private lstatOrUndefined(path: string): BigIntStats | undefined {
    try {
      return this.fs.lstatSync(path, { bigint: true });
    } catch {
      return undefined;
    }
  }

  private compile(rootAbs: string, patterns: readonly string[]): CompiledPatterns {
    const key = Array.isArray(patterns) ? `${rootAbs}\0${patterns.join('\0')}` : undefined;
    const cached = key === undefined ? undefined : this.compiled.get(key);
    if (cached && key !== undefined) {
      // Refresh its place so the map evicts the least recently used list first.
      this.compiled.delete(key);
      this.compiled.set(key, cached);
      return cached;
    }
    const compiled = compilePatterns(normalizePatterns(patterns, rootAbs), this.ignoreCase);
    if (key !== undefined) {
      this.compiled.set(key, compiled);
      if (this.compiled.size > PATTERN_CACHE_SIZE) {
        this.compiled.delete(this.compiled.keys().next().value as string);
      }
    }
    return compiled;
  }

  /** The on-disk ignore rules, noting in `applied` each ignore file that has rules. */
  private recordingIgnores(applied: Set<string>): IgnoreSource {
    return {
      levelFor: (rootPath, fileAbs, fileRel, dirRel, parent, warn) => {
        const level = this.gitignores.levelFor(rootPath, fileAbs, fileRel, dirRel, parent, warn);
        if (level !== parent) applied.add(fileRel);
        return level;
      },
    };
  }

  /** The bytes (one char per byte) of the ignore files in `applied`, as parsed. */
  private textsOf(rootAbs: string, applied: Iterable<string>): Record<string, string> {
    const texts: Record<string, string> = {};
    for (const fileRel of applied) {
      const text = this.gitignores.textOf(rootAbs, fileRel);
      if (text !== undefined) texts[fileRel] = text;
    }
    return texts;
  }

  private listBelow(root: string, roots: readonly string[]): TreeListing {
    const rootAbs = absoluteRoot(root);
    const applied = new Set<string>();
    const listed = this.listingContext(rootAbs, this.recordingIgnores(applied));
    const files: string[] = [];
    for (const rel of roots) walkAt(listed.context, rel, files);
    const { directories, specials, warnings } = listed;
    return { files, directories, specials, ignoreFiles: this.textsOf(rootAbs, applied), warnings };
  }

  /** A walk that lists everything (files of every kind, and directories) under `gitignores`. */
  private listingContext(rootAbs: string, gitignores: IgnoreSource) {
    const warnings: FilesWarning[] = [];
    const directories: string[] = [];
    const specials: string[] = [];
    const context: WalkContext = {
      rootAbs,
      fs: this.fs,
      patterns: this.compile(rootAbs, ['**']),
      gitignores,
      isExcludedName: this.isExcludedName,
      listings: undefined,
      directories,
      specials,
      warn: (warning) => {
        warnings.push(warning);
        this.onWarning?.(warning);
      },
    };
    return { context, directories, specials, warnings };
  }

  private resolveBelow(
    root: string,
    patterns: readonly string[],
    roots: readonly string[],
  ): ResolveResult {
    const rootAbs = absoluteRoot(root);
    const compiled = this.compile(rootAbs, patterns);
    const warnings: FilesWarning[] = [];
    const paths: string[] = [];
    if (compiled.empty) return { paths, warnings };
    const context: WalkContext = {
      rootAbs,
      fs: this.fs,
      patterns: compiled,
      gitignores: this.gitignores,
      isExcludedName: this.isExcludedName,
      listings: undefined,
      warn: (warning) => {
        warnings.push(warning);
        this.onWarning?.(warning);
      },
    };
    for (const rel of roots) walkAt(context, rel, paths);
    return { paths, warnings };
  }

  private run(root: string, patterns: readonly string[], listings?: ListingCache): ResolveResult {
    const rootAbs = absoluteRoot(root);
    const compiled = this.compile(rootAbs, patterns);
    this.assertDirectory(rootAbs);
    const warnings: FilesWarning[] = [];
    if (compiled.empty) return { paths: [], warnings };
    const paths = walk({
      rootAbs,
      fs: this.fs,
      patterns: compiled,
      gitignores: this.gitignores,
      isExcludedName: this.isExcludedName,
      listings,
      warn: (warning) => {
        warnings.push(warning);
        this.onWarning?.(warning);
      },
    });
    listings?.sweep();
    return { paths, warnings };
  }

  private assertDirectory(rootAbs: string): void {
    let isDirectory = false;
    let cause: unknown;
    try {
      isDirectory = this.fs.statSync(rootAbs, { bigint: true }).isDirectory();
    } catch (error) {
      cause = error;
    }
    if (!isDirectory) {
      const errno = errnoCode(cause);
      throw new FilesError('FILES_ROOT_NOT_FOUND', `The root ${rootAbs} is not a directory`, {
        cause,
        details: { root: rootAbs, ...(errno ? { errno } : {}) },
      });
    }
  }
}
