import type { HankSource } from '@hankweave/types';

/**
 * Where a hank came from, in one line: `/path/to/hank.json`, `<url>#<ref>:<subdir> at commit
 * <12 hex>`, or `bundle <path> (sha256 <16 hex>…)`. The text is untrusted (a URL from a file):
 * print it through the terminal, which escapes control characters.
 */
export function describeHankSource(source: HankSource): string {
  switch (source.kind) {
    case 'path':
      return source.path;
    case 'git': {
      const ref = source.ref !== undefined ? `#${source.ref}` : '';
      const subdir =
        source.subdir !== undefined ? `${ref === '' ? '#:' : ':'}${source.subdir}` : '';
      return `${source.url}${ref}${subdir} at commit ${source.commit.slice(0, 12)}`;
    }
    case 'bundle':
      return `bundle ${source.path} (sha256 ${source.bundleHash.slice(0, 16)}…)`;
    default:
      return 'unknown';
  }
}
