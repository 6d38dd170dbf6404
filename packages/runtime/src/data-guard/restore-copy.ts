import { lstatSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { findSymlinkOnPath } from '@hankweave/durable-io';
import type { DataChange } from './fingerprint-diff.js';

/** How a restore went: the paths put back, and those that could not be. */
export interface RestoreResult {
  restored: string[];
  failed: { path: string; message: string }[];
}

const isUnder = (path: string, parent: string) =>
  parent === '' || path === parent || path.startsWith(`${parent}/`);

/**
 * Puts the changed paths of a copied data source back as they are in the original: a path the
 * original has is copied again (a directory whole), one it lacks is removed. `original` is the
 * user's data as `execution-meta.json` resolved it: a directory, or a single file (then the copy
 * is a directory holding that file under its own name, as the execution was set up). Only the
 * copy is written; the original is only read.
 */
export async function restoreCopy(
  copyRoot: string,
  original: string,
  changes: readonly DataChange[],
): Promise<RestoreResult> {
  const result: RestoreResult = { restored: [], failed: [] };
  const originalIsFile = safeLstat(original)?.isFile() ?? false;
  const sourceOf = (path: string): string | undefined => {
    if (!originalIsFile) return path === '' ? original : join(original, path);
    return path === basename(original) ? original : undefined;
  };
  const done: string[] = [];
  for (const change of changes) {
    // A directory the agent replaced by a link is put back whole: nothing is removed or
    // written through the link (it may lead anywhere, the user's own data included).
    const link = await findSymlinkOnPath(copyRoot, change.path, { includeLast: false }).catch(
      () => undefined,
    );
    const path = link ?? change.path;
    if (done.some((parent) => isUnder(path, parent))) continue;
    const target = path === '' ? copyRoot : join(copyRoot, path);
    const source = sourceOf(path);
    const sourceStat = source === undefined ? undefined : safeLstat(source);
    const targetStat = safeLstat(target);
    // A directory that is still a directory on both sides: its entries are restored one by one.
    if (
      link === undefined &&
      change.kind === 'modified' &&
      sourceStat?.isDirectory() &&
      targetStat?.isDirectory()
    ) {
      continue;
    }
    try {
      await rm(target, { recursive: true, force: true });
      if (path === '' && originalIsFile) {
        await mkdir(copyRoot, { recursive: true });
        await cp(original, join(copyRoot, basename(original)), { dereference: true });
      } else if (source !== undefined && sourceStat) {
        await mkdir(dirname(target), { recursive: true });
        await cp(source, target, { recursive: true, dereference: true, preserveTimestamps: true });
      }
      result.restored.push(path);
      done.push(path);
    } catch (error) {
      result.failed.push({ path, message: (error as Error).message });
    }
  }
  return result;
}

function safeLstat(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
