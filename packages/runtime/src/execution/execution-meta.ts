import { type Fs, isMissing, readRegularTextFile, writeFileAtomic } from '@hankweave/durable-io';
import { type ExecutionMeta, executionMetaSchema } from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import { toJsonFile } from '../internal/json-file.js';

/** The version of the `execution-meta.json` layout we write (seed 001). */
export const EXECUTION_META_VERSION = '1.0.0';

/**
 * execution-meta.json as we write it: the seed's fields plus `dataHashVersion`, the algorithm of
 * `dataHash` (absent = 1, the original runtime's mtime-based hash; 2 = `hashDataSource`).
 */
export type RecordedExecutionMeta = ExecutionMeta & { dataHashVersion?: number };

/** The top-level names of an execution directory that hankweave makes (seed 001's layout). */
export const LAYOUT_ENTRIES: readonly string[] = ['agentRoot', 'rigArchive', '.hankweave'];

/** The data hash version a meta file was written with: 1 when it does not say. */
export function dataHashVersionOf(meta: ExecutionMeta): number {
  const version = meta.dataHashVersion;
  return typeof version === 'number' && Number.isInteger(version) ? version : 1;
}

/** Reads `execution-meta.json`, or undefined when the file does not exist. */
export async function readExecutionMeta(path: string): Promise<RecordedExecutionMeta | undefined> {
  let text: string;
  try {
    // Never blocks: a FIFO in its place is an error, as is a file far too large to be ours.
    text = await readRegularTextFile(path, { maxBytes: 16 * 1024 * 1024 });
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  const result = executionMetaSchema.safeParse(safeJson(text));
  if (!result.success) {
    throw new RuntimeError(
      'RUNTIME_EXECUTION_EXISTS',
      `${path} is not a valid execution-meta.json (${result.error.issues[0]?.message}); move the execution directory aside or start a new one with --start-new`,
      { details: { path }, cause: result.error },
    );
  }
  return result.data as RecordedExecutionMeta;
}

/**
 * Writes `execution-meta.json` with exactly the seed's fields (and hankweave's additions when
 * given: `dataHashVersion`, `containment`, `created`, `hankSource`; readers of the original ignore them),
 * durably and atomically: when it resolves the file is on disk, and a crash at any step leaves
 * the previous file or this one.
 */
export async function writeExecutionMeta(
  path: string,
  meta: RecordedExecutionMeta,
  options: { fs?: Fs } = {},
): Promise<void> {
  const exact: RecordedExecutionMeta = {
    version: meta.version,
    readOnlySourceDataPath: meta.readOnlySourceDataPath,
    readOnlySourceResolvedDataPath: meta.readOnlySourceResolvedDataPath,
    dataHash: meta.dataHash,
    hankHash: meta.hankHash,
    hankPath: meta.hankPath,
    linkType: meta.linkType,
    createdAt: meta.createdAt,
    lastUsed: meta.lastUsed,
    ...(meta.dataHashVersion !== undefined ? { dataHashVersion: meta.dataHashVersion } : {}),
    ...(meta.containment !== undefined ? { containment: meta.containment } : {}),
    ...(meta.created !== undefined ? { created: meta.created } : {}),
    ...(meta.hankSource !== undefined ? { hankSource: meta.hankSource } : {}),
  };
  await writeFileAtomic(path, toJsonFile(exact), options);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
