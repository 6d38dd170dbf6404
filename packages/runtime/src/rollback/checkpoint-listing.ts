import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { isMissing, writeFileAtomic, writeFileAtomicSync } from '@hankweave/durable-io';
import type { TreeListing } from '@hankweave/files';
import type { RuntimeContext } from '../runtime/runtime-context.js';

/**
 * What agentRoot held at a checkpoint besides the commit's files: the untracked files (any kind,
 * symlinks and fifos too), every directory, and the .gitignore rules in force. A rollback to the
 * checkpoint moves aside whatever is there now and was not then (`move-debris.ts`), deciding
 * "ignored" by these recorded rules, so a `.gitignore` the undone codons wrote or deleted cannot
 * hide their files or expose build output.
 *
 * Stored gzipped beside the shadow repository, one file per checkpoint sha, written durably
 * before the checkpoint is recorded in state.json: every checkpoint the state names has one
 * (checkpoints of the original runtime or of older versions do not; a rollback to them moves
 * nothing aside, and says so).
 */
export interface CheckpointListing {
  version: 1;
  checkpoint: string;
  /** Paths under agentRoot not in the checkpoint's commit (the commit lists the rest). */
  untracked: string[];
  directories: string[];
  /** Ignore file path → its bytes, one char per byte (see `TreeListing.ignoreFiles`). */
  ignoreFiles: Record<string, string>;
}

/**
 * Lists agentRoot now (warnings go to the log): a checkpoint's files come from it too. Where
 * agentRoot is watched, the scanner keeps the listing and looks again only at what the file
 * system's events name since the last one (`ChangeScanner.listTree`); elsewhere this walks.
 */
export async function listAgentRoot(context: RuntimeContext): Promise<TreeListing> {
  const { listing, walkReason } = await context.scanner.listTree();
  if (walkReason !== undefined && context.fileWatch?.watching) {
    context.log.debug(`Listing walked agentRoot: ${walkReason}`);
  }
  for (const warning of listing.warnings) context.log.warn(`File scan: ${warning.message}`);
  return listing;
}

/** {@link listAgentRoot} by a walk, synchronously (the recovery of an execution). */
export function listAgentRootSync(context: RuntimeContext): TreeListing {
  const tree = context.resolver.listTree(context.layout.agentRoot);
  for (const warning of tree.warnings) context.log.warn(`File scan: ${warning.message}`);
  return tree;
}

/** The listing of checkpoint `sha`, taken as `tree`, whose commit holds `committed`. */
export function checkpointListing(
  sha: string,
  tree: TreeListing,
  committed: Iterable<string>,
): CheckpointListing {
  const inCommit = new Set(committed);
  return {
    version: 1,
    checkpoint: sha,
    untracked: tree.files.filter((path) => !inCommit.has(path)),
    directories: tree.directories,
    ignoreFiles: tree.ignoreFiles,
  };
}

/** Records the listing of checkpoint `sha` (durable on return). */
export async function recordListing(context: RuntimeContext, listing: CheckpointListing) {
  await writeFileAtomic(listingPath(context, listing.checkpoint), encode(listing), {
    createParents: true,
  });
}

/** {@link recordListing}, synchronously (the initial checkpoint is recorded in sync recovery). */
export function recordListingSync(context: RuntimeContext, listing: CheckpointListing): void {
  writeFileAtomicSync(listingPath(context, listing.checkpoint), encode(listing), {
    createParents: true,
  });
}

/**
 * The listing of checkpoint `sha`; undefined when none was recorded or it cannot be read (with
 * the reason, for the caller to report).
 */
export async function readListing(
  context: RuntimeContext,
  sha: string,
): Promise<{ listing: CheckpointListing } | { missing: string }> {
  const path = listingPath(context, sha);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return {
      missing: isMissing(error)
        ? `no listing was recorded with checkpoint ${sha.slice(0, 7)} (made by an older hankweave or by the original runtime)`
        : `its listing ${path} could not be read (${(error as Error).message})`,
    };
  }
  try {
    const value = JSON.parse(gunzipSync(bytes).toString('utf8')) as Partial<CheckpointListing>;
    if (
      value.version !== 1 ||
      value.checkpoint !== sha ||
      !isStrings(value.untracked) ||
      !isStrings(value.directories) ||
      typeof value.ignoreFiles !== 'object' ||
      value.ignoreFiles === null ||
      !isStrings(Object.values(value.ignoreFiles))
    ) {
      throw new Error('unexpected content');
    }
    return { listing: value as CheckpointListing };
  } catch (error) {
    return { missing: `its listing ${path} is damaged (${(error as Error).message})` };
  }
}

function listingPath(context: RuntimeContext, sha: string): string {
  return join(context.layout.checkpointListingsDir, `${sha}.json.gz`);
}

function encode(listing: CheckpointListing): Buffer {
  return gzipSync(JSON.stringify(listing));
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
