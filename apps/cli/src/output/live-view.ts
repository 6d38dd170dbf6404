import type { EventData, HankweaveEvent, HankweaveState } from '@hankweave/types';
import { codonRows } from './codon-rows.js';
import { type CliEvent, describeToolCall, eventCodonId, isKnownEvent } from './describe-event.js';
import { escapeControlCharacters } from './escape-control.js';
import { oneLine } from './format.js';
import { formatRow, rowLayout } from './row-format.js';
import { type RunView, WarningFilter } from './run-view.js';
import { translateRuntimeMessage } from './runtime-words.js';
import type { Terminal } from './terminal.js';

const CURSOR_UP = (lines: number) => `\u001b[${lines}A\r`;
const CLEAR_LINE = '\u001b[2K';
const CLEAR_BELOW = '\u001b[J';
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
/** At most 10 redraws a second. */
const FRAME_MS = 100;

/**
 * The TTY view: one line per codon (status, id, name, elapsed, tokens, cost, current tool call or
 * rig output), redrawn in place: move the cursor up over the block, rewrite each line after
 * clearing it, clear what is left below. Diagnostics are printed above the block, which is then
 * redrawn under them. Lines are cut to the terminal width, so none wraps and the count stays right.
 */
export class LiveView implements RunView {
  readonly summaryToStderr = false;
  #drawn = 0;
  #frame = 0;
  #dirty = true;
  #renderedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #activity = new Map<string, string>();
  #executionDir: string | undefined;
  readonly #warnings = new WarningFilter();
  #restoreCursor = () => this.terminal.write(SHOW_CURSOR);

  constructor(
    private readonly terminal: Terminal,
    private readonly state: () => HankweaveState | undefined,
    private readonly columns: () => number = () => process.stdout.columns || terminal.columns,
  ) {}

  started(executionDir: string): void {
    this.#executionDir = executionDir;
    this.terminal.out(this.terminal.style.dim(`Execution: ${executionDir}`));
    this.terminal.write(HIDE_CURSOR);
    process.once('exit', this.#restoreCursor);
    this.#timer = setInterval(() => this.#tick(), FRAME_MS);
    this.#render();
  }

  onEvent(event: CliEvent): void {
    if (isKnownEvent(event)) this.#apply(event);
    this.#dirty = true;
    // Redraw at once when the last frame is old enough; the timer catches the rest.
    if (Date.now() - this.#renderedAt >= FRAME_MS) this.#render();
  }

  /** What an event changes besides the rows: a codon's current activity, a diagnostic line. */
  #apply(event: HankweaveEvent): void {
    const codonId = eventCodonId(event);
    const { type, data } = event;
    if (codonId) {
      if (type === 'assistant.action' && data.action === 'tool_use') {
        this.#activity.set(codonId, `→ ${describeToolCall(data.toolName ?? '', data.toolInput)}`);
      } else if (type === 'rig.output') {
        this.#activity.set(codonId, `rig: ${oneLine(data.line)}`);
      } else if (type === 'codon.started' || type === 'codon.completed') {
        this.#activity.delete(codonId);
      }
    }
    // A warning the runtime also logged has been shown already: `log` lets it through once.
    if (type === 'error') this.log(data.severity === 'warning' ? 'warn' : 'error', data.message);
    if (type === 'rollback.completed') this.log('info', describeRollback(data));
    // Only --no-autostart runs go idle (autostart runs shut down at the end): say which keys act.
    if (type === 'server.idle') {
      this.log(
        'info',
        `${translateRuntimeMessage(data.message, this.#executionDir === undefined ? {} : { executionDir: this.#executionDir })} ${this.terminal.style.dim('[n] next codon · [r] roll back · [q] quit')}`,
      );
    }
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    if (level === 'warn' && !this.#warnings.first(message)) return;
    const { style } = this.terminal;
    this.#erase();
    const line =
      level === 'error'
        ? style.red(`✗ ${message}`)
        : level === 'warn'
          ? style.yellow(`! ${message}`)
          : message;
    this.terminal.write(`${escapeControlCharacters(line, this.terminal.color)}\n`);
    this.#render();
  }

  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#erase();
    this.terminal.write(SHOW_CURSOR);
    process.removeListener('exit', this.#restoreCursor);
  }

  #tick(): void {
    this.#frame++;
    const rows = this.#rows();
    // Elapsed times and spinners move while a codon is active, so redraw then even without events.
    if (this.#dirty || rows?.some((row) => row.status !== 'pending' && !row.endTime))
      this.#render();
  }

  #rows() {
    try {
      const state = this.state();
      return state ? codonRows(state) : undefined;
    } catch {
      return undefined;
    }
  }

  #render(): void {
    if (this.#timer === undefined) return;
    this.#renderedAt = Date.now();
    const rows = this.#rows();
    if (!rows) return;
    this.#dirty = false;
    const layout = rowLayout(rows);
    const columns = Math.max(40, this.columns());
    const now = Date.now();
    const lines = rows.map((row) =>
      formatRow(row, this.terminal.style, {
        layout,
        columns,
        frame: this.#frame,
        now,
        activity: row.endTime ? undefined : this.#activity.get(row.codonId),
      }),
    );
    // The cursor cannot move up into the scrollback: keep the block shorter than the screen by
    // folding the oldest rows into one line.
    const room = Math.max(3, (process.stdout.rows || 40) - 2);
    if (lines.length > room) {
      const hidden = lines.length - room + 1;
      lines.splice(0, hidden, this.terminal.style.dim(`  … ${hidden} earlier codon(s)`));
    }
    let out = this.#drawn > 0 ? CURSOR_UP(this.#drawn) : '';
    // Codon names, tool calls and model text are untrusted: only our own codes move the cursor.
    for (const line of lines)
      out += `${CLEAR_LINE}${escapeControlCharacters(line, this.terminal.color)}\n`;
    out += CLEAR_BELOW;
    this.#drawn = lines.length;
    this.terminal.write(out);
  }

  #erase(): void {
    if (this.#drawn > 0) this.terminal.write(`${CURSOR_UP(this.#drawn)}${CLEAR_BELOW}`);
    this.#drawn = 0;
  }
}

function describeRollback(data: EventData<'rollback.completed'>): string {
  const moved = data.debris?.count
    ? `; ${data.debris.count} file(s) made since moved aside into ${data.debris.directory}/agentRoot`
    : '';
  return `Rolled back to ${data.codonId ?? 'the initial checkpoint'} (${data.checkpointType})${moved}`;
}
