import { CliError } from './cli-error.js';

/** A ceiling flag (`--max-cost`, `--max-time`; reference §2.2): a number > 0, or a usage error. */
export function positiveNumberFlag(
  value: string | undefined,
  flag: string,
  example: string,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new CliError(
      'CLI_USAGE',
      `${flag} expects a number > 0, got ${value}`,
      `Example: ${example}`,
    );
  }
  return number;
}
