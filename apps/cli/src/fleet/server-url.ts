import { CliError } from '../output/cli-error.js';

/** A URL for messages, as written but with its password replaced by `***`. */
export function maskedUrl(url: string): string {
  // In a URL a password cannot hold a raw ':', '@' or '/': the first ':…@' after the scheme is it.
  return url.replace(/(\/\/[^:@/]*):[^:@/]*@/, '$1:***@');
}

/**
 * The URL of a `--redis`/`--postgres` flag, checked: it parses and its scheme is one of `schemes`
 * (`redis:`); else a usage error naming the flag (password masked) with `writeItAs` as the fix.
 */
export function checkServerUrl(
  flag: string,
  url: string,
  schemes: readonly string[],
  writeItAs: string,
): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError('CLI_USAGE', `${flag}: "${maskedUrl(url)}" is not a URL`, writeItAs);
  }
  if (!schemes.includes(parsed.protocol))
    throw new CliError(
      'CLI_USAGE',
      `${flag}: "${maskedUrl(url)}" is not a ${schemes.map((scheme) => `${scheme}//`).join(' or ')} URL`,
      writeItAs,
    );
  return url;
}
