import { toByteString } from './byte-string.js';
import {
  createRuleFile,
  type IgnoreLevel,
  type IgnoreSource,
  IgnoreLevel as Level,
  type RuleFile,
} from './ignore-levels.js';

/**
 * Ignore rules read from a record (ignore-file path relative to the root → its text as a byte
 * string) instead of the disk: a later walk then ignores exactly what was ignored when the record
 * was made, whatever has since been written to, added as or deleted from a `.gitignore`.
 */
export class RecordedIgnores implements IgnoreSource {
  readonly everyDirectory = true;
  private readonly files = new Map<string, RuleFile | null>();
  private readonly levels = new Map<string, WeakMap<object, IgnoreLevel>>();

  constructor(
    private readonly texts: Readonly<Record<string, string>>,
    private readonly ignoreCase: boolean,
  ) {}

  levelFor(
    _rootAbs: string,
    _fileAbs: string,
    fileRel: string,
    dirRel: string,
    parent: IgnoreLevel | undefined,
  ): IgnoreLevel | undefined {
    const file = this.ruleFile(fileRel, dirRel);
    if (!file) return parent;
    let byParent = this.levels.get(fileRel);
    if (!byParent) {
      byParent = new WeakMap();
      this.levels.set(fileRel, byParent);
    }
    const key = parent ?? NO_PARENT;
    let level = byParent.get(key);
    if (!level) {
      level = new Level(parent, toByteString(dirRel), file, this.ignoreCase);
      byParent.set(key, level);
    }
    return level;
  }

  private ruleFile(fileRel: string, dirRel: string): RuleFile | null {
    let file = this.files.get(fileRel);
    if (file === undefined) {
      const text = Object.hasOwn(this.texts, fileRel) ? this.texts[fileRel] : undefined;
      const parsed =
        typeof text === 'string'
          ? createRuleFile(text, toByteString(dirRel), this.ignoreCase)
          : null;
      file = parsed && parsed.rules.length > 0 ? parsed : null;
      this.files.set(fileRel, file);
    }
    return file;
  }
}

const NO_PARENT = {};
