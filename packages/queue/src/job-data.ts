import { isAbsolute } from 'node:path';
import { QueueError } from './errors.js';

/**
 * The run options that make sense in a job: what a worker passes to `createRuntime` for it.
 * Everything else (the agent's keys, where executions live, a WebSocket port) belongs to the
 * worker's machine, not to the job. Redis stores the job in clear: never put secrets here.
 */
export interface HankJobOptions {
  /** The model of every codon (the CLI's `--model`). */
  model?: string;
  /**
   * A dry run: the absolute path of a scripted-model script. The worker starts the scripted model
   * itself for the job (the CLI's `--scripted-model`), so it needs a `dryRun` launcher.
   */
  scriptedModel?: string;
  /** A dollar ceiling (> 0) for the whole hank (`--max-cost`). */
  maxCost?: number;
  /** A time ceiling in seconds (> 0) for the whole hank (`--max-time`). */
  maxTime?: number;
  /** The runtime budget, combined with the hank's as the smaller of the two. */
  budget?: { maxDollars?: number; maxTimeSeconds?: number };
  /**
   * Names of environment variables the run needs (an API key, a base URL). Values never travel:
   * each worker passes its own; a worker that lacks one fails the job with QUEUE_ENV_MISSING.
   */
  env?: string[];
  /** Copy the data into the execution instead of linking it. */
  copyData?: boolean;
}

/** What a job carries in Redis (`job.data`). */
export interface HankJobData {
  /** The format of this record. */
  version: 1;
  /** The absolute path of hank.json, on storage every worker sees at that path. */
  hankPath: string;
  /** The absolute path of the data, likewise shared. */
  dataPath: string;
  /**
   * The execution directory, when fixed at submit time. Without it each worker uses
   * `{its baseDir}/jobs/{jobId}`: the same directory as long as every worker has the same base.
   */
  executionDir?: string;
  /** `meta.name` of the hank, for listings. */
  hankName: string;
  options: HankJobOptions;
  submittedAt: string;
  /** The host that submitted the job. */
  submittedBy: string;
}

/** The largest `job.data` (as JSON) a job may carry: paths, a name and options, no payload. */
export const MAX_JOB_DATA_BYTES = 64 * 1024;
/** A hank's name as jobs show it; a longer `meta.name` is cut (listings stay one line). */
export const MAX_HANK_NAME_LENGTH = 200;

/** `name` cut to {@link MAX_HANK_NAME_LENGTH} characters. */
export function jobHankName(name: string): string {
  const chars = Array.from(name);
  return chars.length <= MAX_HANK_NAME_LENGTH
    ? name
    : `${chars.slice(0, MAX_HANK_NAME_LENGTH - 1).join('')}…`;
}

/**
 * Refuses job data above {@link MAX_JOB_DATA_BYTES} (as JSON): Redis keeps it, every `jobs`
 * listing reads it, and a job carries paths and options only.
 * @throws {QueueError} QUEUE_INVALID_JOB
 */
export function checkJobDataSize(value: unknown): void {
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    size = Number.POSITIVE_INFINITY;
  }
  if (size > MAX_JOB_DATA_BYTES) {
    throw new QueueError(
      'QUEUE_INVALID_JOB',
      `The job data is ${Number.isFinite(size) ? `${size} bytes` : 'not serialisable'}; a job holds at most ${MAX_JOB_DATA_BYTES} bytes (paths, a name and options)`,
      { details: { field: 'data', size: Number.isFinite(size) ? size : null } },
    );
  }
}

const fail = (message: string, field: string): never => {
  throw new QueueError('QUEUE_INVALID_JOB', message, { details: { field } });
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An absolute path, or QUEUE_INVALID_JOB naming the field. */
export function absolutePath(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') return fail(`${field} is missing`, field);
  if (!isAbsolute(value))
    return fail(
      `${field} must be an absolute path (${value}): every worker resolves it on the shared storage`,
      field,
    );
  return value;
}

const positive = (value: unknown, field: string): number | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    return fail(`${field} must be a number > 0`, field);
  return value;
};

/**
 * Checks job options (at submit, and again on the worker: the job may come from another
 * version or another tool) and returns them without unknown fields.
 * @throws {QueueError} QUEUE_INVALID_JOB naming the field.
 */
export function checkJobOptions(value: unknown): HankJobOptions {
  if (value === undefined) return {};
  if (!isRecord(value)) return fail('options must be an object', 'options');
  const options: HankJobOptions = {};
  if (value.model !== undefined) {
    if (typeof value.model !== 'string' || value.model === '')
      return fail('options.model must be a model id', 'options.model');
    options.model = value.model;
  }
  if (value.scriptedModel !== undefined)
    options.scriptedModel = absolutePath(value.scriptedModel, 'options.scriptedModel');
  const maxCost = positive(value.maxCost, 'options.maxCost');
  if (maxCost !== undefined) options.maxCost = maxCost;
  const maxTime = positive(value.maxTime, 'options.maxTime');
  if (maxTime !== undefined) options.maxTime = maxTime;
  if (value.budget !== undefined) {
    if (!isRecord(value.budget)) return fail('options.budget must be an object', 'options.budget');
    const maxDollars = positive(value.budget.maxDollars, 'options.budget.maxDollars');
    const maxTimeSeconds = positive(value.budget.maxTimeSeconds, 'options.budget.maxTimeSeconds');
    options.budget = {
      ...(maxDollars !== undefined ? { maxDollars } : {}),
      ...(maxTimeSeconds !== undefined ? { maxTimeSeconds } : {}),
    };
  }
  if (value.env !== undefined) {
    const names = value.env;
    if (!Array.isArray(names) || names.some((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)))
      return fail('options.env must list environment variable names', 'options.env');
    options.env = [...names];
  }
  if (value.copyData !== undefined) options.copyData = value.copyData === true;
  return options;
}

/**
 * Reads `job.data` on a worker.
 * @throws {QueueError} QUEUE_INVALID_JOB when it is not a hank job this version understands, or
 *   above {@link MAX_JOB_DATA_BYTES}.
 */
export function parseJobData(value: unknown): HankJobData {
  if (!isRecord(value)) return fail('the job data is not an object', 'data');
  checkJobDataSize(value);
  if (value.version !== 1)
    return fail(`unknown job data version ${String(value.version)}`, 'version');
  return {
    version: 1,
    hankPath: absolutePath(value.hankPath, 'hankPath'),
    dataPath: absolutePath(value.dataPath, 'dataPath'),
    ...(value.executionDir !== undefined
      ? { executionDir: absolutePath(value.executionDir, 'executionDir') }
      : {}),
    hankName: typeof value.hankName === 'string' ? jobHankName(value.hankName) : '?',
    options: checkJobOptions(value.options),
    submittedAt: typeof value.submittedAt === 'string' ? value.submittedAt : '',
    submittedBy: typeof value.submittedBy === 'string' ? value.submittedBy : '',
  };
}
