import { createInterface } from 'node:readline/promises';
import { escapeControlCharacters } from '../output/escape-control.js';

/** Asks a `[y/N]` question on the terminal; no answer within `timeoutMs` means no. */
export async function askYesNo(question: string, timeoutMs = 30_000): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const answer = await rl.question(`${escapeControlCharacters(question)} [y/N] `, {
      signal: timeout,
    });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    process.stderr.write('\n');
    return false;
  } finally {
    rl.close();
  }
}
