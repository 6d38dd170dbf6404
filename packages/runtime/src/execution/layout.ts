import { join } from 'node:path';

/** Where everything lives inside one execution directory (seed 001). */
export interface ExecutionLayout {
  executionDir: string;
  agentRoot: string;
  dataLink: string;
  rigArchive: string;
  hankweaveDir: string;
  lockFile: string;
  metaFile: string;
  /** What the data scan saw, to name changed files (`data-manifest.ts`). */
  dataManifest: string;
  stateFile: string;
  eventsDir: string;
  logsDir: string;
  serverLog: string;
  websocketLog: string;
  runsDir: string;
  checkpointsDir: string;
  /** What else agentRoot held at each checkpoint (`rollback/checkpoint-listing.ts`). */
  checkpointListingsDir: string;
  /** Files a rollback moved out of agentRoot, one directory per rollback (`move-debris.ts`). */
  debrisDir: string;
  sentinelOutputsDir: string;
  sentinelHistoryDir: string;
  archiveManifest: string;
}

/** The name of the data link inside agentRoot; never checkpointed. */
export const DATA_LINK_NAME = 'read_only_data_source';

/** Computes every path of an execution directory. Pure: touches nothing. */
export function executionLayout(executionDir: string): ExecutionLayout {
  const hankweaveDir = join(executionDir, '.hankweave');
  const agentRoot = join(executionDir, 'agentRoot');
  return {
    executionDir,
    agentRoot,
    dataLink: join(agentRoot, DATA_LINK_NAME),
    rigArchive: join(executionDir, 'rigArchive'),
    hankweaveDir,
    lockFile: join(hankweaveDir, 'runtime.lock'),
    metaFile: join(hankweaveDir, 'execution-meta.json'),
    dataManifest: join(hankweaveDir, 'data-manifest.json'),
    stateFile: join(hankweaveDir, 'state.json'),
    eventsDir: join(hankweaveDir, 'events'),
    logsDir: join(hankweaveDir, 'logs'),
    serverLog: join(hankweaveDir, 'logs', 'server.log'),
    websocketLog: join(hankweaveDir, 'logs', 'websocket.log'),
    runsDir: join(hankweaveDir, 'runs'),
    checkpointsDir: join(hankweaveDir, 'checkpoints'),
    checkpointListingsDir: join(hankweaveDir, 'checkpoints', 'listings'),
    debrisDir: join(hankweaveDir, 'debris'),
    sentinelOutputsDir: join(hankweaveDir, 'sentinels', 'outputs'),
    sentinelHistoryDir: join(hankweaveDir, 'sentinels', 'history'),
    archiveManifest: join(hankweaveDir, 'archive-manifest.json'),
  };
}

/** The agent log of a codon: `runs/{runId}/{codonId}-claude.log`, with `#` made file-safe. */
export function agentLogPath(layout: ExecutionLayout, runId: string, codonId: string): string {
  return join(layout.runsDir, runId, `${codonFileName(codonId)}-claude.log`);
}

/** Loop ids such as `review#1` become `review_1` in file names (`#` breaks URLs and shells). */
export function codonFileName(codonId: string): string {
  return codonId.replaceAll('#', '_');
}

/** The file beside the moved files of one rollback's debris directory. */
export const DEBRIS_MANIFEST = 'manifest.json';

/**
 * `.hankweave/debris/{name}/manifest.json`: what one rollback moved out of agentRoot (into
 * `agentRoot/` beside the manifest) because it was not there at the checkpoint (issue 38).
 */
export interface DebrisManifest {
  version: 1;
  /** The run whose work was undone. */
  runId: string;
  /** The checkpoint rolled back to. */
  checkpoint: string;
  movedAt: string;
  /** This directory, relative to the execution directory. */
  directory: string;
  /** Paths relative to agentRoot. */
  files: string[];
  /** New directories removed once empty. */
  removedDirectories: string[];
  /** Paths left in place, with why. */
  failed: { path: string; error: string }[];
}
