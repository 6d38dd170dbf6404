import {
  type CheckModelAccessOptions,
  checkModelAccess,
  type ModelAccessResult,
  type ModelAccessStatus,
} from '@hankweave/runtime';
import { formatDuration } from '../output/format.js';
import { tableLines } from '../output/table.js';
import type { Terminal } from '../output/terminal.js';
import type { DoctorModel } from './doctor-models.js';

/** One checked model: the runtime's result and who in the hank uses it (codon envs are not shown). */
export type DoctorRow = ModelAccessResult & { usedBy: string[] };

/** The settings the models are checked with: a run's (`checkModelAccess` without the models). */
export type DoctorSettings = Omit<CheckModelAccessOptions, 'models' | 'onProgress'>;

const RESULT_WORDS: Readonly<Record<ModelAccessStatus, string>> = {
  ok: 'ok',
  'unknown-model': 'unknown model',
  'not-installed': 'harness not installed',
  'launch-failed': 'harness does not start',
  'no-key': 'no key',
  'bad-key': 'key refused',
  unreachable: 'unreachable',
  'model-not-served': 'model not served',
  failed: 'request failed',
};

/**
 * Checks `models` with `settings`, one at a time; with `progress` (stderr is a terminal and the
 * output is not JSON) a line on stderr before each request, since each one starts an agent.
 */
export async function runDoctor(
  terminal: Terminal,
  models: readonly DoctorModel[],
  settings: DoctorSettings,
  progress: boolean,
): Promise<DoctorRow[]> {
  const results = await checkModelAccess({
    ...settings,
    models: models.map(({ model, env }) => ({ model, ...(env !== undefined && { env }) })),
    ...(progress && {
      onProgress: (model, index, total) =>
        terminal.err(terminal.style.dim(`Checking ${model} (${index + 1}/${total})…`)),
    }),
  });
  // One result per distinct model and env, in order: `models` holds each pair once already.
  return results.map((result, index) => ({ ...result, usedBy: models[index]?.usedBy ?? [] }));
}

/** The table (model, harness, provider, result, used by), for stdout or stderr. */
export function doctorTable(terminal: Terminal, rows: readonly DoctorRow[]): string[] {
  const { style } = terminal;
  const cells = rows.map((row) => [
    row.model,
    row.harness ?? '-',
    row.provider ?? '-',
    resultCell(row),
    row.usedBy.length > 2
      ? `${row.usedBy.slice(0, 2).join(', ')}, +${row.usedBy.length - 2}`
      : row.usedBy.join(', '),
  ]);
  return tableLines(['MODEL', 'HARNESS', 'PROVIDER', 'RESULT', 'USED BY'], cells, style, {
    column: 3,
    paint: (cell) => (cell.startsWith('ok') ? style.green(cell) : style.red(cell)),
  });
}

/** One `→` line per model with a problem: what was found, then what to do. */
export function problemLines(terminal: Terminal, rows: readonly DoctorRow[]): string[] {
  return rows
    .filter((row) => row.status !== 'ok')
    .map((row) => `${terminal.style.dim('→')} ${row.model}: ${row.summary} — ${row.fix ?? ''}`);
}

/** The rows as `--json` prints them. */
export function doctorJson(rows: readonly DoctorRow[], hankPath: string | null): string {
  return JSON.stringify({ hankPath, ok: rows.every((row) => row.status === 'ok'), models: rows });
}

function resultCell(row: DoctorRow): string {
  if (row.status !== 'ok') return RESULT_WORDS[row.status];
  const latency = row.latencyMs !== undefined ? ` ${formatDuration(row.latencyMs)}` : '';
  const cost = row.costUsd !== undefined ? ` $${row.costUsd.toFixed(4)}` : '';
  return `ok${latency}${cost}`;
}
