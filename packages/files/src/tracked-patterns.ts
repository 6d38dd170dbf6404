import { FilesError } from './errors.js';
import { normalizePattern } from './internal/patterns.js';

/** The JSON form of {@link TrackedPatterns}: what each codon added, in codon order. */
export interface TrackedPatternsSnapshot {
  readonly codons: readonly { readonly codonIndex: number; readonly patterns: readonly string[] }[];
}

/** Light normalisation for deduplication: `./src//a` and `src/a` are the same pattern. */
function canonical(pattern: string): string {
  const { negated, glob } = normalizePattern(pattern);
  return negated ? `!${glob}` : glob;
}

function checkIndex(codonIndex: number, minimum: number): void {
  if (!Number.isInteger(codonIndex) || codonIndex < minimum) {
    throw new FilesError('FILES_INVALID_CODON_INDEX', `Invalid codon index ${codonIndex}`, {
      details: { codonIndex, minimum },
    });
  }
}

/**
 * The tracked-file patterns of a run. They accumulate codon by codon (seed 002: after codon 2,
 * both codon 1's `*.ts` and codon 2's `*.md` are tracked), deduplicated in first-seen order, and
 * can be reset to what they were after codon N when a rollback returns there.
 */
export class TrackedPatterns {
  private codons: { codonIndex: number; patterns: string[] }[] = [];

  /** Restores from {@link snapshot} output. @throws {FilesError} on invalid content. */
  constructor(snapshot?: TrackedPatternsSnapshot) {
    for (const codon of snapshot?.codons ?? []) this.add(codon.codonIndex, codon.patterns);
  }

  /**
   * Adds the patterns of codon `codonIndex` (0-based plan position) and returns the accumulated
   * list. Adding to the same codon again (a retry, an extension) merges into it.
   *
   * @throws {FilesError} FILES_INVALID_CODON_INDEX when the index is not an integer ≥ 0 or is
   * lower than an index already added (history is only rewritten through {@link resetTo}).
   * @throws {FilesError} FILES_INVALID_PATTERN for an empty or non-string pattern.
   */
  add(codonIndex: number, patterns: readonly string[]): readonly string[] {
    const lastIndex = this.codons.at(-1)?.codonIndex ?? 0;
    checkIndex(codonIndex, lastIndex);
    if (!Array.isArray(patterns)) {
      throw new FilesError('FILES_INVALID_PATTERN', 'Patterns must be an array of strings');
    }
    const added = patterns.map(canonical);
    const last = this.codons.at(-1);
    if (last?.codonIndex === codonIndex) last.patterns.push(...added);
    else this.codons.push({ codonIndex, patterns: added });
    return this.current();
  }

  /** The accumulated patterns, deduplicated, in the order they were first added. */
  current(): readonly string[] {
    return this.at(Number.POSITIVE_INFINITY);
  }

  /** The accumulated patterns as they were right after codon `codonIndex`. */
  at(codonIndex: number): readonly string[] {
    const seen = new Set<string>();
    for (const codon of this.codons) {
      if (codon.codonIndex > codonIndex) break;
      for (const pattern of codon.patterns) seen.add(pattern);
    }
    return [...seen];
  }

  /**
   * Forgets what codons after `codonIndex` added (rollback to that codon) and returns the
   * accumulated list. `-1` clears everything.
   *
   * @throws {FilesError} FILES_INVALID_CODON_INDEX when the index is not an integer ≥ -1.
   */
  resetTo(codonIndex: number): readonly string[] {
    checkIndex(codonIndex, -1);
    this.codons = this.codons.filter((codon) => codon.codonIndex <= codonIndex);
    return this.current();
  }

  /** A JSON-serialisable copy, to persist or to restore with `new TrackedPatterns(snapshot)`. */
  snapshot(): TrackedPatternsSnapshot {
    return {
      codons: this.codons.map((codon) => ({
        codonIndex: codon.codonIndex,
        patterns: [...codon.patterns],
      })),
    };
  }
}
