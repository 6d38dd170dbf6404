import type { HankweaveState } from '@hankweave/types';
import {
  type CliEvent,
  describeEvent,
  eventCodonId,
  isKnownEvent,
  isProgressEvent,
} from './describe-event.js';
import { escapeControlCharacters } from './escape-control.js';
import { clockTime, fit, formatDuration, oneLine, truncate } from './format.js';
import { laneCodonLabel, lanesOf } from './lanes.js';
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

/**
 * Lets each warning through once. The runtime may log a warning and also journal it as an `error`
 * event of severity `warning`, and a warning raised per scan or per attempt repeats word for word:
 * a reader needs it once. Errors are never held back.
 */
export class WarningFilter {
  readonly #seen = new Set<string>();

  /** True the first time `message` is seen. */
  first(message: string): boolean {
    const key = oneLine(message);
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    return true;
  }

  /** True for an event that repeats a warning already shown (and records a new one). */
  repeats(event: CliEvent): boolean {
    if (!isKnownEvent(event) || event.type !== 'error' || event.data.severity !== 'warning')
      return false;
    return !this.first(event.data.message);
  }
}

/** Prints a diagnostic on stderr, coloured by level. */
export function logTo(terminal: Terminal, level: 'info' | 'warn' | 'error', message: string): void {
  const { style } = terminal;
  if (level === 'error') terminal.err(style.red(`✗ ${message}`));
  else if (level === 'warn') terminal.err(style.yellow(`! ${message}`));
  else terminal.err(message);
}

/** The default quiet time before `--headless` says a tool call is still running. */
const HEARTBEAT_MS = 30_000;

/**
 * The heartbeat interval: `HANKWEAVE_HEARTBEAT_MS` (tests use a short one), else 30 s; `0`
 * turns the heartbeat off.
 */
export function heartbeatInterval(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HANKWEAVE_HEARTBEAT_MS;
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : HEARTBEAT_MS;
}

/** `45s` under a minute (a heartbeat needs no tenths), then as `formatDuration`. */
const heartbeatElapsed = (ms: number): string =>
  ms < 60_000 ? `${Math.floor(ms / 1000)}s` : formatDuration(ms);

interface PendingTool {
  codonId: string;
  label: string;
  startedAt: number;
}

/** `Bash \`sleep 60\``, `Read notes/a.md`: what a heartbeat says is running. */
function toolLabel(toolName: string, input: unknown): string {
  const args =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (typeof args.command === 'string')
    return `${toolName} \`${truncate(oneLine(args.command), 80)}\``;
  const target = args.file_path ?? args.path ?? args.pattern ?? args.url ?? args.description;
  return typeof target === 'string' ? `${toolName} ${truncate(oneLine(target), 80)}` : toolName;
}

/**
 * Not a TTY: one line per event a person follows a run by; no ANSI unless colour is forced.
 * During a long tool call it prints a heartbeat after each `heartbeatMs` without output
 * (`still running: Bash \`sleep 60\` (45s)`), so a CI log never looks hung.
 */
export class PlainView implements RunView {
  readonly summaryToStderr = false;
  readonly #warnings = new WarningFilter();
  /** Tool calls announced and not yet answered, by tool use id. */
  readonly #pending = new Map<string, PendingTool>();
  #lastOutput = Date.now();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly terminal: Terminal,
    private readonly heartbeatMs: number = heartbeatInterval(),
    private readonly now: () => number = Date.now,
    /** The run's state, when known: a parallel block's codons are labelled with their branch. */
    private readonly state?: () => HankweaveState | undefined,
  ) {}

  #lanes: { plan: unknown; size: number; lanes: ReturnType<typeof lanesOf> } | undefined;

  /** `[review/left] style` for a codon of a parallel block's branch, else the codon id. */
  #label(codonId: string): string {
    let state: HankweaveState | undefined;
    try {
      state = this.state?.();
    } catch {
      state = undefined;
    }
    // Read again when the plan changes (a loop's next iteration is appended to it).
    if (
      state &&
      (this.#lanes?.plan !== state.executionPlan || this.#lanes.size !== state.executionPlan.length)
    )
      this.#lanes = {
        plan: state.executionPlan,
        size: state.executionPlan.length,
        lanes: lanesOf(state),
      };
    const label = laneCodonLabel(codonId, this.#lanes?.lanes.get(codonId));
    // Whole, so interleaved lines of concurrent branches stay apart; plain ids keep 16 columns.
    return fit(label, Math.max(16, Array.from(label).length));
  }

  onEvent(event: CliEvent): void {
    this.#track(event);
    if (!isProgressEvent(event) || this.#warnings.repeats(event)) return;
    const { style } = this.terminal;
    const codon = this.#label(eventCodonId(event) ?? '');
    const text = describeEvent(event);
    const failed =
      isKnownEvent(event) &&
      (event.type === 'error' || (event.type === 'codon.completed' && !event.data.success));
    this.#print(
      `${style.dim(clockTime(event.timestamp))} ${codon} ${failed ? style.red(text) : text}`,
    );
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    if (level === 'warn' && !this.#warnings.first(message)) return;
    this.#lastOutput = this.now();
    logTo(this.terminal, level, message);
  }

  started(): void {
    // The runtime's own "Execution … ready" info line has already said where it is.
    if (this.heartbeatMs <= 0 || this.#timer !== undefined) return;
    // Checked a few times per interval, so a heartbeat comes at most a third of one late.
    this.#timer = setInterval(
      () => this.#beat(),
      Math.max(50, Math.min(this.heartbeatMs / 3, 5000)),
    );
    // The heartbeat never keeps the process alive on its own.
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }

  #print(line: string): void {
    this.#lastOutput = this.now();
    this.terminal.out(line);
  }

  /** Follows tool calls from their `tool_use` to their result (or the end of their codon). */
  #track(event: CliEvent): void {
    if (!isKnownEvent(event)) return;
    const { type, data } = event;
    if (type === 'assistant.action' && data.action === 'tool_use' && data.toolUseId) {
      this.#pending.set(data.toolUseId, {
        codonId: data.codonId,
        label: toolLabel(data.toolName ?? 'tool', data.toolInput),
        startedAt: this.now(),
      });
    } else if (type === 'tool.result') {
      this.#pending.delete(data.toolUseId);
    } else if (type === 'codon.completed') {
      for (const [id, tool] of this.#pending)
        if (tool.codonId === data.codonId) this.#pending.delete(id);
    }
  }

  #beat(): void {
    const now = this.now();
    if (this.#pending.size === 0 || now - this.#lastOutput < this.heartbeatMs) return;
    const { style } = this.terminal;
    const clock = clockTime(new Date(now).toISOString());
    for (const tool of this.#pending.values()) {
      this.#print(
        `${style.dim(clock)} ${this.#label(tool.codonId)} ${style.dim(`still running: ${tool.label} (${heartbeatElapsed(now - tool.startedAt)})`)}`,
      );
    }
  }
}

/** `--json`: every event as one NDJSON line on stdout and nothing else there. */
export class JsonView implements RunView {
  readonly summaryToStderr = true;
  constructor(private readonly terminal: Terminal) {}

  onEvent(event: CliEvent): void {
    // Valid JSON still (escapes inside strings), but no raw DEL, C1 or bidi control on a terminal.
    this.terminal.write(`${escapeControlCharacters(JSON.stringify(event))}\n`);
  }

  readonly #warnings = new WarningFilter();

  log(level: 'info' | 'warn' | 'error', message: string): void {
    // stderr only: stdout keeps every event, repeats included.
    if (level === 'warn' && !this.#warnings.first(message)) return;
    logTo(this.terminal, level, message);
  }

  started(executionDir: string): void {
    this.terminal.err(`Execution: ${executionDir}`);
  }

  stop(): void {}
}
