import type { HankConfig } from '@hankweave/types';
import { hankModels } from '../doctor/doctor-models.js';
import { doctorTable, problemLines, runDoctor } from '../doctor/doctor-report.js';
import { formatDuration } from '../output/format.js';
import type { Terminal } from '../output/terminal.js';

/** What a run's self-test is given: the validated hank and the settings the run will use. */
export interface SelfTestInputs {
  /** The hank as the run loaded it (every codon's model already replaced by `-m` or an override). */
  config: HankConfig;
  hankDir: string;
  env: NodeJS.ProcessEnv;
  anthropicBaseUrl?: string;
  /** Where the one-line result goes (stdout, or stderr with `--json`). */
  note: (line: string) => void;
  /** Progress lines on stderr while each model's request runs. */
  progress: boolean;
}

/**
 * `--self-test` (or `selfTest: true`): the doctor's check of every model of the hank, before the
 * run creates anything. Passing, one line; failing, the doctor's table and `→` lines on stderr
 * and `false`: the run does not start.
 */
export async function runSelfTest(terminal: Terminal, inputs: SelfTestInputs): Promise<boolean> {
  const models = hankModels(inputs.config, inputs.hankDir);
  const rows = await runDoctor(
    terminal,
    models,
    {
      env: inputs.env,
      ...(inputs.anthropicBaseUrl !== undefined && { anthropicBaseUrl: inputs.anthropicBaseUrl }),
    },
    inputs.progress,
  );
  if (rows.every((row) => row.status === 'ok')) {
    const each = rows.map((row) => `${row.model} ${formatDuration(row.latencyMs ?? 0)}`);
    inputs.note(terminal.style.dim(`Self-test: every model answered (${each.join(', ')}).`));
    return true;
  }
  terminal.err(
    terminal.style.red('Self-test failed: the run was not started, nothing was created.'),
  );
  for (const line of doctorTable(terminal, rows)) terminal.err(line);
  for (const line of problemLines(terminal, rows)) terminal.err(line);
  return false;
}
