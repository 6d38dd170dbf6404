import type { BigIntStats } from 'node:fs';
import { errnoCode, type Fs, isMissing } from '@hankweave/durable-io';
import type { FilesWarning } from '../errors.js';
import { bytesToByteString, toByteString } from './byte-string.js';
import { createRuleFile, IgnoreLevel, type IgnoreSource, type RuleFile } from './ignore-levels.js';
import { isRacy, nowNs } from './racy.js';

interface Entry {
  readonly signature: string;
  /** The file's bytes, one char per byte (a byte string). */
  readonly text: string;
  /** False when the file was written so recently that a same-size edit could keep the stat. */
  readonly trusted: boolean;
  readonly file: RuleFile;
  /** Levels built on this file, per parent level (a parent is rebuilt when its file changes). */
  readonly levels: WeakMap<object, IgnoreLevel>;
}

const NO_PARENT = {};

/**
 * Parsed .gitignore files keyed by root and directory. Each use re-stats the file (one lstat per
 * .gitignore per walk) and re-reads it when inode, size, mtime or ctime changed, so an agent that
 * edits a .gitignore mid-run is seen by the next resolve.
 */
export class GitignoreCache implements IgnoreSource {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly fs: Fs,
    private readonly ignoreCase: boolean,
    private readonly racyWindowNs: bigint,
  ) {}

  /**
   * The level for the children of `dirRel` given the ignore file at `fileAbs` (its `.gitignore`,
   * or `.git/info/exclude` for the root). Returns `parent` unchanged when the file is absent,
   * empty of rules, or unreadable (then with a warning, as git warns and carries on).
   */
  levelFor(
    rootAbs: string,
    fileAbs: string,
    fileRel: string,
    dirRel: string,
    parent: IgnoreLevel | undefined,
    warn: (warning: FilesWarning) => void,
  ): IgnoreLevel | undefined {
    const observedAt = nowNs();
    let stats: BigIntStats;
    try {
      stats = this.fs.lstatSync(fileAbs, { bigint: true });
    } catch (error) {
      if (!isMissing(error)) warn(unreadable(fileRel, errnoCode(error)));
      return parent;
    }
    if (!stats.isFile()) {
      // Git refuses to follow a symlinked in-tree .gitignore; a directory is not rules either.
      if (stats.isSymbolicLink()) warn(unreadable(fileRel, 'ELOOP'));
      return parent;
    }
    const key = `${rootAbs}\0${fileRel}`;
    const signature = `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
    let entry = this.entries.get(key);
    if (!entry?.trusted || entry.signature !== signature) {
      let text: string;
      try {
        text = bytesToByteString(this.fs.readFileSync(fileAbs));
      } catch (error) {
        warn(unreadable(fileRel, errnoCode(error)));
        return parent;
      }
      entry = {
        signature,
        text,
        trusted: !isRacy(stats.mtimeNs, observedAt, this.racyWindowNs),
        file: createRuleFile(text, toByteString(dirRel), this.ignoreCase),
        levels: new WeakMap(),
      };
      this.entries.set(key, entry);
    }
    if (entry.file.rules.length === 0) return parent;
    const parentKey = parent ?? NO_PARENT;
    let level = entry.levels.get(parentKey);
    if (!level) {
      level = new IgnoreLevel(parent, toByteString(dirRel), entry.file, this.ignoreCase);
      entry.levels.set(parentKey, level);
    }
    return level;
  }

  /** The text (a byte string) last read from the ignore file at `fileRel` of `rootAbs`. */
  textOf(rootAbs: string, fileRel: string): string | undefined {
    return this.entries.get(`${rootAbs}\0${fileRel}`)?.text;
  }

  /** Forgets every parsed file. */
  clear(): void {
    this.entries.clear();
  }
}

function unreadable(path: string, errno: string | undefined): FilesWarning {
  return {
    code: 'FILES_UNREADABLE',
    path,
    message: `Ignore file ${path} could not be read (${errno ?? 'unknown error'}); its rules are skipped`,
    ...(errno ? { errno } : {}),
  };
}
