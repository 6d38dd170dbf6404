import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CliError } from '../output/cli-error.js';

/** Where hank.json is, given a path to it or to its directory. */
export function resolveHankPath(pathOrDir: string): string {
  const absolute = resolve(pathOrDir);
  if (!existsSync(absolute)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `${pathOrDir} does not exist`,
      'Pass a hank.json file or a directory that contains one (try `hankweave init` for a sample).',
    );
  }
  const file = statSync(absolute).isDirectory() ? join(absolute, 'hank.json') : absolute;
  if (!existsSync(file)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `${absolute} has no hank.json`,
      'Pass the path of a hank.json, or run `hankweave init` to scaffold one.',
    );
  }
  return file;
}

/** Reads and parses hank.json; a syntax error names the file and the position. */
export function readHankJson(hankPath: string): { config: unknown; hankDir: string } {
  const text = readFileSync(hankPath, 'utf8');
  try {
    return { config: JSON.parse(text), hankDir: dirname(hankPath) };
  } catch (error) {
    throw new CliError(
      'CLI_FAILED',
      `${hankPath} is not valid JSON: ${(error as Error).message}`,
      'Fix the JSON syntax (a trailing comma or a missing quote is the usual cause).',
    );
  }
}
