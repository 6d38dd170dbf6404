import { existsSync } from 'node:fs';
import { runtimeOptionsOf } from '@hankweave/runtime';
import { type DoctorModel, hankModels } from '../doctor/doctor-models.js';
import {
  type DoctorSettings,
  doctorJson,
  doctorTable,
  problemLines,
  runDoctor,
} from '../doctor/doctor-report.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import type { Terminal } from '../output/terminal.js';
import { isBundleArgument } from '../run/bundle-source.js';
import { resolveHankArgument } from '../run/remote-source.js';
import { resolveCliRuntimeConfig } from '../run/runtime-config.js';
import type { DoctorOptions } from './doctor-flags.js';
import { readHankJson, resolveHankPath } from './load-hank.js';

/**
 * `hankweave doctor [hank]`: checks each model the hank (else the runtime config) uses with the
 * settings a run would have, and prints a table and one `→` line per problem. Exit 0 when every
 * model passes, 1 otherwise.
 *
 * @throws {CliError} CLI_USAGE when there is no hank here and the runtime config names no model.
 */
export async function doctorCommand(
  terminal: Terminal,
  hankArg: string | undefined,
  options: DoctorOptions,
): Promise<number> {
  const hankPath =
    hankArg !== undefined
      ? isBundleArgument(hankArg)
        ? // Verified against its lock and extracted, as a run does, so its hank.json is read.
          (await (await import('../run/bundle-source.js')).openBundleHank(hankArg)).hankPath
        : (await resolveHankArgument(hankArg)).hankPath
      : existsSync('hank.json')
        ? resolveHankPath('hank.json')
        : undefined;
  const hank = hankPath !== undefined ? readHankJson(hankPath) : undefined;
  const flags = {
    ...(options.model !== undefined && { model: options.model }),
    ...(options.anthropicBaseUrl !== undefined && { anthropicBaseUrl: options.anthropicBaseUrl }),
  };
  const config = resolveCliRuntimeConfig(flags, hank?.config);
  const override = config.get('model');
  const models: DoctorModel[] = hank
    ? hankModels(hank.config, hank.hankDir, typeof override === 'string' ? override : undefined)
    : typeof override === 'string'
      ? [{ model: override, usedBy: ['the runtime config'] }]
      : [];
  if (models.length === 0) {
    throw new CliError(
      'CLI_USAGE',
      hank
        ? `${hankPath} names no model`
        : 'No hank.json here, and the runtime config names no model',
      `Name a hank (\`${commandHint('doctor', '<hank>')}\`) or a model (\`${commandHint('doctor', '-m', 'sonnet')}\`).`,
    );
  }
  const { anthropicBaseUrl } = runtimeOptionsOf(config);
  const settings: DoctorSettings = {
    env: process.env,
    ...(anthropicBaseUrl !== undefined && { anthropicBaseUrl }),
  };
  const progress = !options.json && process.stderr.isTTY === true;
  const rows = await runDoctor(terminal, models, settings, progress);
  const ok = rows.every((row) => row.status === 'ok');
  if (options.json) {
    terminal.out(doctorJson(rows, hankPath ?? null));
    return ok ? 0 : 1;
  }
  for (const line of doctorTable(terminal, rows)) terminal.out(line);
  for (const line of problemLines(terminal, rows)) terminal.out(line);
  const failing = rows.filter((row) => row.status !== 'ok').length;
  terminal.out(
    ok
      ? terminal.style.green(
          `✓ ${rows.length === 1 ? 'The model' : `All ${rows.length} models`} answered`,
        )
      : terminal.style.red(`✗ ${failing} of ${rows.length} model(s) cannot be used as set up`),
  );
  return ok ? 0 : 1;
}
