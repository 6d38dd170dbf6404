import {
  type CliEvent,
  describeEvent,
  eventCodonId,
  isKnownEvent,
  isProgressEvent,
} from './describe-event.js';
import { clockTime, fit } from './format.js';
import type { Terminal } from './terminal.js';

/** How a run is shown: the live view, plain progress lines, or NDJSON. */
export interface RunView {
  /** Every journaled event, in order. */
  onEvent(event: CliEvent): void;
  /** A diagnostic of the CLI or the runtime (warnings, errors, hints). */
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** The runtime has started: the execution directory is known. */
  started(executionDir: string): void;
  /** The run is over: stop drawing (the summary follows). */
  stop(): void;
  /** Where the summary goes: stdout, except in `--json` mode (stdout is NDJSON only). */
  readonly summaryToStderr: boolean;
}

/** Prints a diagnostic on stderr, coloured by level. */
export function logTo(terminal: Terminal, level: 'info' | 'warn' | 'error', message: string): void {
  const { style } = terminal;
  if (level === 'error') terminal.err(style.red(`✗ ${message}`));
  else if (level === 'warn') terminal.err(style.yellow(`! ${message}`));
  else terminal.err(message);
}

/** Not a TTY: one line per event a person follows a run by; no ANSI unless colour is forced. */
export class PlainView implements RunView {
  readonly summaryToStderr = false;
  constructor(private readonly terminal: Terminal) {}

  onEvent(event: CliEvent): void {
    if (!isProgressEvent(event)) return;
    const { style } = this.terminal;
    const codon = eventCodonId(event) ?? '';
    const text = describeEvent(event);
    const failed =
      isKnownEvent(event) &&
      (event.type === 'error' || (event.type === 'codon.completed' && !event.data.success));
    this.terminal.out(
      `${style.dim(clockTime(event.timestamp))} ${fit(codon, 16)} ${failed ? style.red(text) : text}`,
    );
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    logTo(this.terminal, level, message);
  }

  started(): void {
    // The runtime's own "Execution … ready" info line has already said where it is.
  }

  stop(): void {}
}

/** `--json`: every event as one NDJSON line on stdout and nothing else there. */
export class JsonView implements RunView {
  readonly summaryToStderr = true;
  constructor(private readonly terminal: Terminal) {}

  onEvent(event: CliEvent): void {
    this.terminal.write(`${JSON.stringify(event)}\n`);
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    logTo(this.terminal, level, message);
  }

  started(executionDir: string): void {
    this.terminal.err(`Execution: ${executionDir}`);
  }

  stop(): void {}
}
