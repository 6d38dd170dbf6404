import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, rename, rm, symlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '@hankweave/durable-io';
import { RuntimeError } from '../errors.js';
import { toJsonFile } from '../internal/json-file.js';
import { dataChangedError } from './data-changed-error.js';
import { DATA_HASH_VERSION } from './data-hash.js';
import { writeDataManifest } from './data-manifest.js';
import {
  EXECUTION_META_VERSION,
  LAYOUT_ENTRIES,
  type RecordedExecutionMeta,
  readExecutionMeta,
  writeExecutionMeta,
} from './execution-meta.js';
import { findNewestExecution, identifyData } from './find-newest-execution.js';
import { type ExecutionLayout, executionLayout } from './layout.js';

export { findNewestExecution };

/** The environment variable that moves the managed executions directory. */
export const EXECUTION_BASE_DIR_ENV = 'HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR';

/** The parent of auto-managed execution directories. */
export function defaultExecutionBaseDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[EXECUTION_BASE_DIR_ENV] || join(homedir(), '.hankweave-executions');
}

export interface PrepareExecutionOptions {
  /** The user's data: a file or a directory. */
  dataPath: string;
  /** Absolute path of hank.json (recorded in execution-meta.json). */
  hankPath: string;
  /** `hashHank(config)`: a change since the last run gives a warning. */
  hankHash: string;
  /** An explicit execution directory (create or resume). */
  executionDir?: string;
  /** Always create a new execution instead of resuming. */
  startNew?: boolean;
  /** Allow replacing an existing `.hankweave` (kept as a backup) or relinking changed data. */
  force?: boolean;
  /** With `startNew` + `force` on an existing execution: keep `agentRoot/` instead of wiping it. */
  noWipe?: boolean;
  /** Copy the data instead of symlinking it. */
  copyData?: boolean;
  /** How long hashing the data may scan, in ms (hank.json `overrides.dataHashTimeLimit`). */
  dataHashTimeLimitMs?: number;
  /** The managed parent directory (default `defaultExecutionBaseDir()`). */
  baseDir?: string;
  /**
   * No longer asked (issue 31): a non-empty directory that is not an execution is refused unless
   * `force`, whatever a confirmation would answer, so that `-y` can never put an execution among a
   * user's own files. Kept so that existing callers still compile.
   * @deprecated pass `force` instead.
   */
  confirm?: (question: string) => boolean | Promise<boolean>;
  /** The containment of the run about to start, recorded in execution-meta.json. */
  containment?: RecordedExecutionMeta['containment'];
  /**
   * Where the hank came from, recorded in execution-meta.json. Default: what the execution
   * recorded when it is resumed with the same hank.json (a rollback keeps a git source), else
   * `{ kind: 'path', path: hankPath }`.
   */
  hankSource?: RecordedExecutionMeta['hankSource'];
  now?: () => Date;
  /**
   * Called once the directory is chosen and checked, before anything in it is written (layout,
   * data link, execution-meta.json): the runtime takes `runtime.lock` here, so a resume never
   * relinks the data or rewrites the meta of an execution another process is running.
   */
  beforeWrite?: (layout: ExecutionLayout) => Promise<void>;
}

export interface PreparedExecution {
  layout: ExecutionLayout;
  meta: RecordedExecutionMeta;
  /** True when this call created the execution; false when it resumed one. */
  created: boolean;
  warnings: string[];
}

/**
 * Finds or creates the execution directory (reference §2.4, seed 001): resume the newest managed
 * execution with the same data hash, or an explicit directory; create the layout, link (or copy)
 * the data at `agentRoot/read_only_data_source`, and keep `execution-meta.json` current.
 *
 * A data change never silently starts a new execution: when no managed execution has the data's
 * hash but one was created for the same data path, this throws RUNTIME_DATA_CHANGED and creates
 * nothing (resume that one with `executionDir` + `force`, or pass `startNew`). An execution
 * recorded with the version-1 hash (no `dataHashVersion`) is compared with that hash, and
 * rewritten with the current one when it is resumed.
 *
 * @throws {RuntimeError} RUNTIME_DATA_NOT_FOUND, RUNTIME_DATA_CHANGED, RUNTIME_RESERVED_LOCATION,
 *   RUNTIME_EXECUTION_EXISTS, RUNTIME_EXECUTION_NOT_EMPTY, RUNTIME_DATA_MISMATCH,
 *   RUNTIME_NESTED_EXECUTION
 */
export async function prepareExecution(
  options: PrepareExecutionOptions,
): Promise<PreparedExecution> {
  const now = options.now ?? (() => new Date());
  const dataPath = resolve(options.dataPath);
  if (!existsSync(dataPath)) {
    throw new RuntimeError(
      'RUNTIME_DATA_NOT_FOUND',
      `The data source ${dataPath} does not exist; pass an existing file or directory as data`,
      { details: { dataPath } },
    );
  }
  const identity = identifyData(
    dataPath,
    options.dataHashTimeLimitMs !== undefined ? { timeLimitMs: options.dataHashTimeLimitMs } : {},
  );
  const dataHash = identity.scan.hash;
  const baseDir = resolve(options.baseDir ?? defaultExecutionBaseDir());
  const warnings: string[] = [];

  let executionDir: string;
  // What hankweave creates is recorded (`created`), so that prune removes only that; a new
  // execution's `.hankweave` moved aside as a backup passes its record on.
  let inherited: RecordedExecutionMeta['created'];
  if (options.executionDir !== undefined) {
    executionDir = resolve(options.executionDir);
    inherited = await checkExplicitDir(executionDir, dataPath, baseDir, options, warnings);
  } else {
    const existing = options.startNew ? undefined : await findNewestExecution(baseDir, identity);
    if (existing?.matchedBy === 'path') throw await dataChangedError(dataPath, existing, identity);
    executionDir =
      existing?.executionDir ??
      join(
        baseDir,
        `${now().getTime()}-${randomBytes(3).toString('hex').slice(0, 4)}-${dataHash.slice(0, 6)}`,
      );
  }

  const layout = executionLayout(executionDir);
  const previous = await readExecutionMeta(layout.metaFile);
  const timestamp = now().toISOString();
  const resolvedPath = identity.resolvedPath;
  // The same data found at another path (a copy, a move) is linked where it is now.
  let relink = previous === undefined || previous.readOnlySourceResolvedDataPath !== resolvedPath;
  if (previous && !identity.matches(previous)) {
    if (!options.force) {
      throw new RuntimeError(
        'RUNTIME_DATA_MISMATCH',
        `The data at ${dataPath} is not the data this execution was created with (${previous.readOnlySourceDataPath}); pass --force to relink it, or --start-new for a new execution`,
        { details: { executionDir, expected: previous.dataHash, actual: dataHash } },
      );
    }
    warnings.push(`The data changed since this execution was created; relinking ${dataPath}`);
    relink = true;
  }
  if (previous && previous.hankHash !== options.hankHash) {
    warnings.push(
      `hank.json changed since this execution last ran; the plan frozen in state.json is kept for resumed runs`,
    );
  }
  // Listed before anything is written here (the lock taken in beforeWrite creates .hankweave).
  const before = existsSync(executionDir) ? readdirSync(executionDir) : undefined;
  await options.beforeWrite?.(layout);
  await createTree(layout);
  const linkType = relink
    ? await linkData(dataPath, layout.dataLink, options.copyData === true)
    : (previous as RecordedExecutionMeta).linkType;
  const meta: RecordedExecutionMeta = {
    version: EXECUTION_META_VERSION,
    readOnlySourceDataPath: options.dataPath,
    readOnlySourceResolvedDataPath: resolvedPath,
    dataHash,
    hankHash: options.hankHash,
    hankPath: options.hankPath,
    linkType,
    createdAt: previous?.createdAt ?? timestamp,
    lastUsed: timestamp,
    dataHashVersion: DATA_HASH_VERSION,
    ...(options.containment !== undefined && { containment: options.containment }),
    hankSource:
      options.hankSource ??
      (previous?.hankSource !== undefined && previous.hankPath === options.hankPath
        ? previous.hankSource
        : { kind: 'path', path: options.hankPath }),
    ...createdRecord(previous, inherited, before),
  };
  await writeExecutionMeta(layout.metaFile, meta);
  await writeDataManifest(layout.dataManifest, identity.scan);
  return { layout, meta, created: previous === undefined, warnings };
}

/**
 * The `created` record to write: kept as it was on a resumed execution (an execution recorded
 * before there was a record gets none: prune then removes only the layout's names); for a new
 * one, the layout names that did not exist before, and whether the directory was new or empty.
 */
function createdRecord(
  previous: RecordedExecutionMeta | undefined,
  inherited: RecordedExecutionMeta['created'],
  before: string[] | undefined,
): Pick<RecordedExecutionMeta, 'created'> {
  if (previous) return previous.created ? { created: previous.created } : {};
  if (inherited) return { created: inherited };
  const existed = new Set(before ?? []);
  return {
    created: {
      directory: before === undefined || before.length === 0,
      entries: LAYOUT_ENTRIES.filter((name) => !existed.has(name)),
    },
  };
}

async function checkExplicitDir(
  dir: string,
  dataPath: string,
  baseDir: string,
  options: PrepareExecutionOptions,
  warnings: string[],
): Promise<RecordedExecutionMeta['created']> {
  if (dir === dataPath) {
    throw new RuntimeError(
      'RUNTIME_NESTED_EXECUTION',
      `The execution directory cannot be the data source itself (${dir}); choose another directory`,
      { details: { executionDir: dir } },
    );
  }
  for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
    if (existsSync(join(parent, '.hankweave', 'execution-meta.json'))) {
      throw new RuntimeError(
        'RUNTIME_NESTED_EXECUTION',
        `${dir} is inside the execution ${parent}; choose a directory outside it`,
        { details: { executionDir: dir, parent } },
      );
    }
  }
  const hasMeta = existsSync(join(dir, '.hankweave', 'execution-meta.json'));
  if (dirname(dir) === baseDir && !hasMeta) {
    throw new RuntimeError(
      'RUNTIME_RESERVED_LOCATION',
      `Cannot create a new execution in ${baseDir}: that directory is managed by hankweave. Omit --execution to let hankweave choose, or pick a directory elsewhere`,
      { details: { executionDir: dir, baseDir } },
    );
  }
  const hasHankweave = existsSync(join(dir, '.hankweave'));
  if (hasHankweave && options.startNew) {
    if (!options.force) {
      throw new RuntimeError(
        'RUNTIME_EXECUTION_EXISTS',
        `${dir} already holds an execution; pass --force with --start-new to back it up and start over, or drop --start-new to resume it`,
        { details: { executionDir: dir } },
      );
    }
    const old = await readExecutionMeta(join(dir, '.hankweave', 'execution-meta.json')).catch(
      () => undefined,
    );
    const stamp = new Date().toISOString().replaceAll(':', '').replaceAll('-', '').slice(0, 15);
    const backup = join(dir, `.hankweave.backup-${stamp}`);
    await rename(join(dir, '.hankweave'), backup);
    warnings.push(`The previous execution state was moved to ${backup}`);
    // agentRoot is hankweave's only when the record says so (or, without a record, as before).
    if (
      !options.noWipe &&
      (old?.created === undefined || old.created.entries.includes('agentRoot'))
    )
      await rm(join(dir, 'agentRoot'), { recursive: true, force: true });
    return old?.created;
  }
  // Not an execution, and not empty: the user's own files. A confirmation (`-y`) is not enough:
  // only --force puts an execution here, and then prune removes only what hankweave made.
  if (!hasHankweave && existsSync(dir) && readdirSync(dir).length > 0 && !options.force) {
    throw new RuntimeError(
      'RUNTIME_EXECUTION_NOT_EMPTY',
      `${dir} is not empty and is not a hankweave execution: its files are not hankweave's. Pick an empty or new directory, or pass --force to put the execution beside them (hankweave then removes only what it creates there, never the directory's own files)`,
      { details: { executionDir: dir } },
    );
  }
  return undefined;
}

async function createTree(layout: ExecutionLayout): Promise<void> {
  for (const dir of [
    layout.agentRoot,
    layout.rigArchive,
    layout.eventsDir,
    layout.logsDir,
    layout.runsDir,
    layout.checkpointsDir,
    layout.sentinelOutputsDir,
    layout.sentinelHistoryDir,
  ]) {
    await mkdir(dir, { recursive: true });
  }
  if (!existsSync(layout.archiveManifest)) {
    await writeFileAtomic(layout.archiveManifest, toJsonFile({ version: '1.0.0', entries: [] }));
  }
}

/**
 * Makes `agentRoot/read_only_data_source`: a symlink to a data directory (a copy when asked or
 * when symlinks fail), or, for a single file, a directory holding a link to (or copy of) it.
 */
async function linkData(
  dataPath: string,
  linkPath: string,
  copy: boolean,
): Promise<'symlink' | 'copy'> {
  await rm(linkPath, { recursive: true, force: true });
  const isFile = statSync(dataPath).isFile();
  const target = isFile ? join(linkPath, basename(dataPath)) : linkPath;
  if (isFile) await mkdir(linkPath, { recursive: true });
  if (!copy) {
    try {
      await symlink(dataPath, target, isFile ? 'file' : 'dir');
      return 'symlink';
    } catch {
      // Some filesystems (and CI sandboxes) refuse symlinks: fall back to a copy.
    }
  }
  await cp(dataPath, target, { recursive: true, dereference: true });
  return 'copy';
}
