import { type ExecutionSummary, PgStateMirror } from '@hankweave/postgres';
import { RUN_STATUSES } from '@hankweave/types';
import { dateTime, formatCost } from '../output/format.js';
import { tableLines } from '../output/table.js';
import type { Style, Terminal } from '../output/terminal.js';
import { parseStatusList } from '../sessions/session-options.js';
import { openFleetDatabase } from './postgres-options.js';
import { maskedUrl } from './server-url.js';

/** The statuses of the fleet's view: its runs' statuses, and `new` before a first run. */
export const FLEET_STATUSES = ['new', ...RUN_STATUSES] as const;

/** What `sessions --postgres --json` prints per execution. */
export interface FleetExecutionJson {
  executionId: string;
  status: string;
  hankName: string | null;
  executionDir: string | null;
  worker: string | null;
  jobId: string | null;
  totalCost: number;
  runCount: number;
  currentRunId: string | null;
  updatedAt: string;
}

const HEADERS = ['EXECUTION', 'STATUS', 'HANK', 'COST', 'RUNS', 'WORKER', 'UPDATED'];
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** One mirrored execution as `--json` prints it. */
export function fleetExecutionJson(row: ExecutionSummary): FleetExecutionJson {
  return {
    executionId: row.executionId,
    status: row.status,
    hankName: text(row.meta.hankName),
    executionDir: text(row.meta.executionDir),
    worker: text(row.meta.worker),
    jobId: text(row.meta.jobId),
    totalCost: row.totalCost,
    runCount: row.runCount,
    currentRunId: row.currentRunId,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * `hankweave sessions --postgres <url>`: every execution the fleet's workers mirrored into the
 * database, newest change first (`--status` filters, `--json` prints the rows).
 */
export async function fleetSessionsCommand(
  terminal: Terminal,
  url: string,
  options: { json?: boolean; status?: string[]; all?: boolean },
): Promise<number> {
  const statuses = parseStatusList(options.status, FLEET_STATUSES, 'fleet execution status');
  const pool = await openFleetDatabase(url, 1);
  let rows: FleetExecutionJson[];
  try {
    const listed = await new PgStateMirror({ pool }).list({ limit: options.all ? 100_000 : 1_000 });
    rows = listed
      .filter((row) => !statuses || (statuses as readonly string[]).includes(row.status))
      .map(fleetExecutionJson);
  } finally {
    await pool.end().catch(() => undefined);
  }
  if (options.json) {
    terminal.out(JSON.stringify(rows));
    return 0;
  }
  const { style } = terminal;
  if (rows.length === 0) {
    terminal.out(
      `No execution${statuses ? ` with status ${statuses.join(',')}` : ''} in the fleet database ${maskedUrl(url)}.`,
    );
    terminal.out(
      style.dim('Workers started with --postgres <url> copy each execution there as they run it.'),
    );
    return 0;
  }
  for (const line of fleetLines(rows, style)) terminal.out(line);
  return 0;
}

/** The table of mirrored executions, with each one's directory under it. */
export function fleetLines(rows: readonly FleetExecutionJson[], style: Style): string[] {
  const cells = rows.map((row) => [
    row.executionId,
    row.status,
    row.hankName ?? '-',
    formatCost(row.totalCost),
    String(row.runCount),
    row.worker ?? '-',
    dateTime(row.updatedAt),
  ]);
  const [header, ...lines] = tableLines(HEADERS, cells, style, {
    column: 1,
    paint: (cell) => {
      const status = cell.trim();
      if (status === 'completed') return style.green(cell);
      if (status === 'failed' || status === 'crashed') return style.red(cell);
      if (status === 'running') return style.cyan(cell);
      return cell;
    },
  });
  return [
    header as string,
    ...lines.flatMap((line, index) => {
      const dir = rows[index]?.executionDir;
      return dir ? [line, style.dim(`  ${dir}`)] : [line];
    }),
  ];
}
