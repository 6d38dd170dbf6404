import ignore, { type Ignore } from 'ignore';
import type { FilesWarning } from '../errors.js';
import { toByteString } from './byte-string.js';
import { type GitignoreRule, mayMatchChildOf, parseGitignore } from './gitignore-rules.js';

/** The parsed rules of one ignore file, shared by every level built on it. */
export interface RuleFile {
  readonly rules: readonly GitignoreRule[];
  /** The basename-only rules, as written. */
  readonly basenameRules: Ignore;
  /** Every rule rewritten relative to the root. */
  readonly rebasedRules: Ignore;
}

/**
 * Builds a {@link RuleFile} from byte strings; the `ignore` instances compile each rule's regex
 * once. With `ignoreCase`, the regexes also fold non-ASCII bytes (git folds ASCII only): a
 * deviation limited to non-ASCII names on case-insensitive setups.
 */
export function createRuleFile(text: string, dirRel: string, ignoreCase: boolean): RuleFile {
  const rules = parseGitignore(text, dirRel);
  return {
    rules,
    basenameRules: ignore({ ignorecase: ignoreCase }).add(
      rules.filter((rule) => rule.basenameOnly).map((rule) => rule.pattern),
    ),
    rebasedRules: ignore({ ignorecase: ignoreCase }).add(rules.map((rule) => rule.rebased)),
  };
}

interface AnchoredRule {
  readonly rule: GitignoreRule;
  readonly base: string;
}

/**
 * The ignore rules in force for the children of one directory: its own .gitignore on top of its
 * parent's level. Git decides a path by the closest .gitignore that has a matching rule, the last
 * matching rule within it; concatenating the rule lists root first and letting the last match win
 * is the same thing, which is what both `ignore` instances below rely on.
 */
export class IgnoreLevel {
  private readonly anchored: readonly AnchoredRule[];
  private basenameIgnore: Ignore | undefined;
  private fullIgnore: Ignore | undefined;

  constructor(
    readonly parent: IgnoreLevel | undefined,
    readonly base: string,
    readonly file: RuleFile,
    private readonly ignoreCase: boolean,
  ) {
    const own = file.rules.filter((rule) => !rule.basenameOnly).map((rule) => ({ rule, base }));
    this.anchored = parent ? [...parent.anchored, ...own] : own;
  }

  /**
   * Returns the test `(name, isDirectory) => ignored` for the direct children of `dirRel` (with a
   * trailing slash, '' for the root), which must lie at or below this level's base. Takes
   * ordinary strings; rules and paths are compared as byte strings, as git compares them.
   *
   * Fast path: when no anchored rule of the chain can match a child of `dirRel`, every rule left
   * is matched against the basename, so the verdict depends on the name alone and `ignore`'s own
   * cache turns repeated names (index.ts, package.json...) into lookups. Otherwise the full path
   * is tested against all rules rewritten relative to the root, which is exact, including git's
   * "a file under an excluded directory cannot be re-included".
   */
  childTest(dirRel: string): (name: string, isDirectory: boolean) => boolean {
    const dir = toByteString(dirRel);
    const needsFullPath = this.anchored.some(({ rule, base }) =>
      mayMatchChildOf(rule, base, dir, this.ignoreCase),
    );
    if (!needsFullPath) {
      const rules = this.basenames();
      return (name, isDirectory) => {
        const bytes = toByteString(name);
        return rules.ignores(isDirectory ? `${bytes}/` : bytes);
      };
    }
    const rules = this.fullPaths();
    return (name, isDirectory) =>
      rules.ignores(`${dir}${toByteString(name)}${isDirectory ? '/' : ''}`);
  }

  private basenames(): Ignore {
    if (!this.basenameIgnore) {
      const own = this.file.basenameRules;
      this.basenameIgnore = ignore({ ignorecase: this.ignoreCase }).add(
        this.parent ? [this.parent.basenames(), own] : [own],
      );
    }
    return this.basenameIgnore;
  }

  private fullPaths(): Ignore {
    if (!this.fullIgnore) {
      const own = this.file.rebasedRules;
      this.fullIgnore = ignore({ ignorecase: this.ignoreCase }).add(
        this.parent ? [this.parent.fullPaths(), own] : [own],
      );
    }
    return this.fullIgnore;
  }
}

/**
 * Where a walk gets the ignore rules of a directory: the .gitignore files on disk
 * (`GitignoreCache`) or a recorded set of them (`RecordedIgnores`).
 */
export interface IgnoreSource {
  /**
   * True when the walk must ask for every directory's rules, not only for directories that now
   * hold a `.gitignore` entry (a recorded file may have been deleted since).
   */
  readonly everyDirectory?: boolean;
  /**
   * The level for the children of `dirRel` given the ignore file at `fileAbs` (`fileRel`
   * relative to the root); `parent` unchanged when that file has no rules.
   */
  levelFor(
    rootAbs: string,
    fileAbs: string,
    fileRel: string,
    dirRel: string,
    parent: IgnoreLevel | undefined,
    warn: (warning: FilesWarning) => void,
  ): IgnoreLevel | undefined;
}
