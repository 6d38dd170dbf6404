import { lstat, mkdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointEngine } from '@hankweave/checkpoints';
import { findSymlinkOnPath } from '@hankweave/durable-io';
import { ChangeScanner } from '@hankweave/files';
import { CheckpointHint } from '../codon/checkpoint-hint.js';
import { RuntimeError } from '../errors.js';
import { BranchBus } from '../events/event-bus.js';
import { DATA_LINK_NAME } from '../execution/layout.js';
import type { RuntimeContext } from '../runtime/runtime-context.js';
import { NO_SENTINELS } from '../runtime/sentinel-host.js';
import { branchTreeName } from './block-lanes.js';

/** The directory under the execution directory that holds every branch's work tree. */
export const BRANCHES_DIR = 'branches';

/** A branch's own context, work tree and checkpoint engine; close it when the branch is done. */
export interface OpenBranch {
  readonly branchId: string;
  readonly context: RuntimeContext;
  readonly hint: CheckpointHint;
  readonly engine: CheckpointEngine;
  close(): Promise<void>;
}

/**
 * Opens branch `branchId` of block `blockId`: its work tree `branches/{name}/agentRoot` in the
 * execution directory, restored to `checkpoint` (the block's base for a branch that has not
 * run, its newest moved-past checkpoint on a resume), the data linked read-only as in agentRoot,
 * and a context in which every codon part (rig, agent, scans, checkpoints, conditions) sees the
 * work tree as its agentRoot and the sandbox lets it write that tree only. The context has its
 * own sentinel host (`SentinelHost.forBranch`), given the events emitted in the branch only.
 *
 * @throws {RuntimeError} RUNTIME_UNSAFE_PATH when a directory on the way is a symbolic link (the
 *   runtime never follows a link out of the execution); the engine's errors as they come.
 */
export async function openBranch(
  context: RuntimeContext,
  input: { blockId: string; branchId: string; checkpoint: string },
): Promise<OpenBranch> {
  const name = branchTreeName(input.blockId, input.branchId);
  const relative = join(BRANCHES_DIR, name, 'agentRoot');
  const link = await findSymlinkOnPath(context.layout.executionDir, relative);
  if (link !== undefined) {
    throw new RuntimeError(
      'RUNTIME_UNSAFE_PATH',
      `${join(context.layout.executionDir, link)} is a symbolic link: the work tree of branch ${input.branchId} is not opened through it. Remove the link and resume`,
      { details: { path: join(context.layout.executionDir, link) } },
    );
  }
  const workTree = join(context.layout.executionDir, relative);
  await mkdir(workTree, { recursive: true });
  const engine = await context.engine.worktree({ name, workTree });
  try {
    await engine.restore(input.checkpoint);
    const dataLink = join(workTree, DATA_LINK_NAME);
    await linkData(context.layout.dataLink, dataLink);
    const layout = { ...context.layout, agentRoot: workTree, dataLink };
    const sandbox = context.sandbox && {
      ...context.sandbox,
      writable: [workTree],
      readOnly: [
        dataLink,
        ...(context.sandbox.readOnly ?? []).filter((path) => path !== context.layout.dataLink),
      ],
    };
    // The branch's codons run beside its siblings' on the one bus: what they emit goes through
    // the branch's view of it, and only that reaches the branch's own sentinel host.
    const bus = new BranchBus(context.bus);
    const sentinels =
      context.sentinels.forBranch?.({
        blockId: input.blockId,
        branchId: input.branchId,
        agentRoot: workTree,
      }) ?? NO_SENTINELS;
    const unsubscribe = bus.subscribe((event) => {
      if (bus.owns(event)) sentinels.observe(event);
    });
    const branchContext: RuntimeContext = {
      ...context,
      layout,
      engine,
      bus,
      sentinels,
      scanner: new ChangeScanner(workTree, { resolver: context.resolver }),
      // A branch's work tree lives for one block: its scans walk.
      fileWatch: undefined,
      sandbox,
      branch: { blockId: input.blockId, branchId: input.branchId, name },
    };
    return {
      branchId: input.branchId,
      context: branchContext,
      hint: new CheckpointHint(),
      engine,
      close: async () => {
        // A codon unloads its sentinels when it ends; one that did not end (an error on the way
        // out, a forced shutdown) leaves them loaded: they are stopped here, never left running.
        try {
          if (sentinels.loadedCount() > 0) await sentinels.unload('shutdown').catch(() => []);
        } finally {
          unsubscribe();
          await engine.close();
        }
      },
    };
  } catch (error) {
    await engine.close().catch(() => {});
    throw error;
  }
}

/**
 * The data in a work tree as in agentRoot: a link to where agentRoot's data link points (the data
 * itself, or agentRoot's copy of it, both read-only in the sandbox). Kept when already there.
 */
async function linkData(mainLink: string, branchLink: string): Promise<void> {
  const main = await lstat(mainLink).catch(() => undefined);
  if (!main) return;
  if (await lstat(branchLink).catch(() => undefined)) return;
  const target = main.isSymbolicLink() ? await readlink(mainLink) : mainLink;
  await symlink(target, branchLink);
}
