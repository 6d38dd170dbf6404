import { commandHint, shellArg } from './command-hint.js';

/** Where the message is shown, so the translation can name a command that works there. */
export interface RuntimeWordsContext {
  /** The execution the message is about (fills in `--execution <dir>`). */
  executionDir?: string;
}

/**
 * Sentences of the runtime's messages that speak the WebSocket protocol (`codon.next`,
 * `server.force_shutdown`, ...), with what a CLI user does instead. The runtime's words are right
 * for protocol clients; a person at the CLI has keys, Ctrl-C and commands.
 */
const SENTENCES: [RegExp, (context: RuntimeWordsContext) => string][] = [
  [/Send server\.force_shutdown to force quit\.?/, () => 'Ctrl-C again to force.'],
  [
    /Use 'codon\.next' to continue\.?/,
    (context) => `Continue with [n], or later with \`${resume(context)}\`.`,
  ],
  [
    /Use 'codon\.redo' to retry it, or roll back\.?/,
    (context) =>
      `[r] rolls back to the last success; \`${resume(context)}\` later retries from there.`,
  ],
  [/\s*\(codon\.next\)/, () => ''],
  [/;\s*use codon\.next\b/, () => '; start one with [n]'],
];

/** The protocol's command names, should a sentence above not catch one. */
const WORDS: [RegExp, string][] = [
  [/\bserver\.force_shutdown\b/g, 'a second Ctrl-C'],
  [/\bserver\.shutdown\b/g, 'Ctrl-C'],
  [/\bcodon\.next\b/g, 'the next codon'],
  [/\bcodon\.redo\b/g, 'a retry'],
  [/\bcodon\.(start|skip|forceStop)\b/g, 'a codon command'],
  [/\brollback\.to(LastSuccess|Codon|Checkpoint)\b/g, 'a rollback'],
];

function resume(context: RuntimeWordsContext): string {
  return commandHint(
    '--execution',
    context.executionDir ? shellArg(context.executionDir) : '<execution dir>',
  );
}

/**
 * A runtime message (an `info` or `server.idle` event, a log line) in the CLI's own words: no
 * protocol command names, and the key, Ctrl-C or command line that does the same. Messages
 * without protocol words come back unchanged.
 */
export function translateRuntimeMessage(
  message: string,
  context: RuntimeWordsContext = {},
): string {
  let text = message;
  for (const [pattern, replace] of SENTENCES) text = text.replace(pattern, () => replace(context));
  for (const [pattern, replacement] of WORDS) text = text.replace(pattern, replacement);
  return text;
}
