import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { executionLayout, readExecutionMeta } from '@hankweave/runtime';
import type { HankSource } from '@hankweave/types';
import { resolveHankPath } from '../commands/load-hank.js';
import {
  defaultDataOf,
  hankDirectoryDataWarning,
  isDirectory,
} from '../execution/find-execution.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';
import { isBundleArgument, openBundleHank } from './bundle-source.js';
import { isRemoteHankUrl, recordedHank, remoteRunInputs } from './remote-source.js';

/** What to run: absolute paths of hank.json and of the data. */
export interface RunInputs {
  hankPath: string;
  dataPath: string;
  /** Said once before the run (the data is the hank's own directory). */
  warnings?: string[];
  /** Where the hank came from, when it is not a plain path (a git URL at a commit, a bundle). */
  hankSource?: HankSource;
  /** One-line warnings for stderr about the hank's source (a remote used offline, a resume pinned). */
  sourceNotes?: string[];
  /** Said once before the run (where a bundle was extracted, or that its extraction was reused). */
  notes?: string[];
}

/**
 * Works out hank.json and the data from the positionals, `--data` and `--execution`
 * (reference §1.1, §2.3 step 8):
 * - a first positional ending in `.hank` or `.tar.zst`: a bundle, verified and extracted (see
 *   `bundle-source.ts`); the data is the second, `--data` or the cwd;
 * - two positionals: the hank (a hank.json or its directory), then the data;
 * - one positional ending in `.json`: the hank; the data is `--data` or the cwd;
 * - one positional directory holding hank.json: the hank; the data is `--data`, else its `data/`
 *   folder, else the directory itself (with a warning: editing a prompt then changes the data);
 * - any other positional: the data; the hank is the data directory's hank.json, else ./hank.json;
 * - none: with `--execution` on an existing execution, its recorded hank and data; otherwise the
 *   data is `--data` or the cwd and the hank is found as above.
 */
export async function resolveRunInputs(
  positionals: string[],
  options: { data?: string; execution?: string; startNew?: boolean },
): Promise<RunInputs> {
  const [first, second] = positionals;
  if (positionals.length > 2) {
    throw new CliError(
      'CLI_USAGE',
      `Too many positional arguments. Expected at most 2 (hank-path, data-path), got ${positionals.length}.`,
      'Usage: hankweave <hank.json | dir> [data]',
    );
  }
  if (
    second !== undefined &&
    options.data !== undefined &&
    resolve(second) !== resolve(options.data)
  ) {
    throw new CliError(
      'CLI_USAGE',
      `The data is given twice: ${second} and --data ${options.data}`,
      'Pass the data either as the second argument or with --data.',
    );
  }
  const meta = options.execution
    ? await readExecutionMeta(executionLayout(resolve(options.execution)).metaFile).catch(
        () => undefined,
      )
    : undefined;
  const recordedData = meta
    ? existsSync(meta.readOnlySourceResolvedDataPath)
      ? meta.readOnlySourceResolvedDataPath
      : resolve(meta.readOnlySourceDataPath)
    : undefined;

  // A `.hank` bundle: verified and extracted into the cache, then run like a directory's hank.
  if (first !== undefined && isBundleArgument(first)) {
    const bundle = await openBundleHank(first);
    return {
      hankPath: bundle.hankPath,
      dataPath: resolve(second ?? options.data ?? recordedData ?? process.cwd()),
      hankSource: bundle.hankSource,
      notes: [bundle.note],
    };
  }
  // A git URL is a hank (reference §1.1), alone or with the data (remote-source.ts).
  if (first !== undefined && isRemoteHankUrl(first)) {
    const dataPath = resolve(second ?? options.data ?? recordedData ?? process.cwd());
    return remoteRunInputs(first, dataPath, {
      meta,
      explicit: options.execution !== undefined,
      startNew: options.startNew === true,
    });
  }
  if (first !== undefined && (second !== undefined || first.endsWith('.json'))) {
    return {
      hankPath: resolveHankPath(first),
      dataPath: resolve(second ?? options.data ?? recordedData ?? process.cwd()),
    };
  }
  if (first !== undefined && isDirectory(first) && existsSync(join(first, 'hank.json'))) {
    const dataPath = resolve(options.data ?? defaultDataOf(first));
    return {
      hankPath: resolveHankPath(first),
      dataPath,
      ...(dataPath === resolve(first) ? { warnings: [hankDirectoryDataWarning(dataPath)] } : {}),
    };
  }
  if (first === undefined && meta && options.data === undefined) {
    return { ...(await fromRecord(meta)), dataPath: recordedData as string };
  }
  const dataPath = resolve(first ?? options.data ?? process.cwd());
  if (!existsSync(dataPath)) {
    throw new CliError(
      'CLI_NOT_FOUND',
      `${first ?? dataPath} does not exist`,
      'Pass a hank (a hank.json or its directory) and the data: hankweave <hank> [data].',
    );
  }
  for (const candidate of [join(dataPath, 'hank.json'), resolve('hank.json')]) {
    if (existsSync(candidate)) return { hankPath: candidate, dataPath };
  }
  if (meta) return { ...(await fromRecord(meta)), dataPath };
  throw new CliError(
    'CLI_NOT_FOUND',
    `No hank.json found (looked in ${dataPath} and ${process.cwd()})`,
    `Pass a hank: ${commandHint('<hank.json | dir>', '[data]')}, or scaffold one with \`${commandHint('init')}\`.`,
  );
}

/** The hank an execution recorded (a git source: its commit, from the cache or fetched). */
async function fromRecord(
  meta: Parameters<typeof recordedHank>[0],
): Promise<Omit<RunInputs, 'dataPath'>> {
  const hank = await recordedHank(meta);
  return {
    hankPath: hank.hankPath,
    ...(hank.hankSource ? { hankSource: hank.hankSource } : {}),
  };
}
