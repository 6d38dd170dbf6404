import { escapeControlCharacters } from './escape-control.js';

/** Where the CLI writes, and whether it may use colour and live redraws. */
export interface Terminal {
  /** stdout is an interactive terminal: live view and redraws are allowed. */
  readonly isTTY: boolean;
  readonly color: boolean;
  readonly columns: number;
  /** One line to stdout; control characters in it are shown escaped (see escapeControlCharacters). */
  out(line?: string): void;
  /** One line to stderr, escaped as `out`. */
  err(line?: string): void;
  /**
   * Raw write to stdout (the live view's cursor movement): the caller escapes what it did not
   * write itself.
   */
  write(text: string): void;
  readonly style: Style;
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const ansi = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/**
 * Decides colour the way users expect: only on a TTY, never with `NO_COLOR` (any value) or
 * `TERM=dumb`, always with `FORCE_COLOR` (other than `0`).
 */
export function wantsColor(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined) return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

export function createTerminal(
  options: {
    stdout?: NodeJS.WriteStream;
    stderr?: NodeJS.WriteStream;
    env?: NodeJS.ProcessEnv;
  } = {},
): Terminal {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const isTTY = stdout.isTTY === true;
  const color = wantsColor(isTTY, env);
  const style: Style = color
    ? {
        bold: ansi(1, 22),
        dim: ansi(2, 22),
        red: ansi(31, 39),
        green: ansi(32, 39),
        yellow: ansi(33, 39),
        cyan: ansi(36, 39),
      }
    : { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return {
    isTTY,
    color,
    columns: stdout.columns || 100,
    // Every line passes here: hank, codon and job names, model text, paths are untrusted text.
    out: (line = '') => stdout.write(`${escapeControlCharacters(line, color)}\n`),
    err: (line = '') => stderr.write(`${escapeControlCharacters(line, color)}\n`),
    write: (text) => stdout.write(text),
    style,
  };
}
