import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { storeInputText } from '@hankweave/runtime';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { isBundleArgument } from './bundle-source.js';

/**
 * Turns `--input <text>` and a `-` data argument (stdin) into a data file: the text is stored
 * content-addressed in `~/.hankweave-cache/inputs` (reference §2.2, §2.3 step 8), so the same text
 * has the same data hash and resumes the same execution. Returns the positionals and `--data` to
 * resolve, with the stored file in place of the text; `copy` is true (inline data is copied).
 *
 * @throws {CliError} CLI_USAGE when the data is given twice or stdin is a terminal or empty.
 */
export async function inlineData(
  positionals: string[],
  options: { input?: string; data?: string },
  stdin: NodeJS.ReadStream & { isTTY?: boolean } = process.stdin,
): Promise<{ positionals: string[]; data?: string; inline: boolean }> {
  const dash = positionals.indexOf('-');
  if (options.input === undefined && dash === -1) {
    return {
      positionals,
      ...(options.data !== undefined ? { data: options.data } : {}),
      inline: false,
    };
  }
  const dataArgument =
    positionals.length === 2 ||
    (positionals.length === 1 && dash === -1 && !isHank(positionals[0]));
  if (
    (options.input !== undefined && (dash !== -1 || options.data !== undefined || dataArgument)) ||
    (dash !== -1 && options.data !== undefined)
  ) {
    throw new CliError(
      'CLI_USAGE',
      'The data is given twice (--input, "-", --data or a data argument)',
      'Give the data once: --input "text", or pipe it with `-`, or a path.',
    );
  }
  let text: string;
  if (options.input !== undefined) text = options.input;
  else {
    if (stdin.isTTY) {
      throw new CliError(
        'CLI_USAGE',
        'No input provided on stdin.',
        `Use: echo "text" | ${commandHint('hank.json', '-')}`,
      );
    }
    text = await readAll(stdin);
  }
  if (text.length === 0) {
    throw new CliError(
      'CLI_USAGE',
      'The input text is empty',
      `Pass some text: --input "..." or echo "..." | ${commandHint('<hank>', '-')}`,
    );
  }
  const path = await storeInputText(text);
  const rest = positionals.filter((_, index) => index !== dash);
  return { positionals: rest, data: path, inline: true };
}

/**
 * A single argument is the hank when it names a `.json` file, a bundle (`.hank`, `.tar.zst`) or a
 * directory holding hank.json.
 */
function isHank(argument: string | undefined): boolean {
  if (argument === undefined) return false;
  return (
    argument.endsWith('.json') ||
    isBundleArgument(argument) ||
    existsSync(join(argument, 'hank.json'))
  );
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
