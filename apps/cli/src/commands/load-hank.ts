import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';
import { type JsonSyntaxProblem, parseJsonWithLocation } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';

/** Where hank.json is, given a path to it or to its directory. */
export function resolveHankPath(pathOrDir: string): string {
  const absolute = resolve(pathOrDir);
  if (!existsSync(absolute)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `${pathOrDir} does not exist`,
      `Pass a hank.json file or a directory that contains one (try \`${commandHint('init')}\` for a sample).`,
    );
  }
  const file = statSync(absolute).isDirectory() ? join(absolute, 'hank.json') : absolute;
  if (!existsSync(file)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `${absolute} has no hank.json`,
      `Pass the path of a hank.json, or run \`${commandHint('init')}\` to scaffold one.`,
    );
  }
  return file;
}

/** hank.json read and parsed, or where its JSON stops parsing. */
export type HankJson =
  | { ok: true; config: unknown; hankDir: string }
  | { ok: false; hankDir: string; problem: JsonSyntaxProblem };

/**
 * Reads hank.json and parses it (a byte-order mark is skipped). A syntax error comes back with
 * its line, column and the offending line with a caret (`parseJsonWithLocation`), for the caller
 * to print or to put in `--json` output.
 */
export function readHankJsonText(hankPath: string): HankJson {
  const hankDir = dirname(hankPath);
  let text: string;
  try {
    // Never blocks: a FIFO named as hank.json is refused at once (EFTYPE), not waited on.
    text = readRegularFileSync(hankPath).toString('utf8');
  } catch (error) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `Cannot read ${hankPath}: ${(error as Error).message}`,
      'Pass the path of a readable hank.json.',
    );
  }
  const parsed = parseJsonWithLocation(text, hankPath);
  return parsed.ok
    ? { ok: true, config: parsed.value, hankDir }
    : { ok: false, hankDir, problem: parsed.error };
}

/** The error of a hank.json that is not JSON: `<file>:<line>:<column>: <what>`, line, caret. */
export function invalidJsonError(problem: JsonSyntaxProblem): CliError {
  return new CliError(
    'CLI_FAILED',
    `${problem.formatted}`,
    'Fix the JSON syntax at that line and column (a trailing comma or a missing quote is the usual cause).',
  );
}

/**
 * Reads and parses hank.json, for the run and validate paths.
 *
 * @throws {CliError} CLI_FAILED when it is not JSON (message: `<file>:<line>:<column>: <what>`,
 *   the offending line and a caret under the column), CLI_NOT_FOUND when it cannot be read.
 */
export function readHankJson(hankPath: string): { config: unknown; hankDir: string } {
  const read = readHankJsonText(hankPath);
  if (!read.ok) throw invalidJsonError(read.problem);
  return { config: read.config, hankDir: read.hankDir };
}
