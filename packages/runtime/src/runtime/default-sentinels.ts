import { SentinelManager } from '@hankweave/sentinels';
import { isTerminalCodonStatus, type ModelCatalog, type SentinelState } from '@hankweave/types';
import type { RuntimeBus } from '../events/event-bus.js';
import type { RuntimeLogger } from '../events/server-log.js';
import { type RuntimeContext, transition } from './runtime-context.js';
import type { SentinelBranch, SentinelHost } from './sentinel-host.js';

/** What the runtime's own sentinel hosts share: the open execution's parts. */
export interface DefaultSentinelsInput {
  hankDir: string;
  hankweaveDir: string;
  agentRoot: string;
  env: NodeJS.ProcessEnv;
  piBaseUrl?: string;
  piApi?: string;
  models: ModelCatalog;
  persistHistory: boolean;
  bus: RuntimeBus;
  /** Aborted by a forced shutdown: nothing more is emitted. */
  abandoned: AbortSignal;
  log: RuntimeLogger;
  /** The runtime context, once it exists (counters are recorded in its state). */
  context(): RuntimeContext | undefined;
}

/**
 * The runtime's sentinel host: a `@hankweave/sentinels` SentinelManager that observes the events
 * the runtime gives it (it drops sentinel events itself) and records its counters as
 * SentinelStatesUpdated on the codon it watches. `forBranch` opens another manager for one
 * parallel branch (issue 36): outputs with a `/` go to the branch's work tree (checkpointed and
 * merged with the branch), and its `sentinel.*` events carry the branch.
 */
export function defaultSentinels(
  input: DefaultSentinelsInput,
  branch?: SentinelBranch,
): SentinelHost {
  // The codon whose record takes the counters: with branches, the newest record of the run may
  // be a sibling branch's codon, so it is named, not found.
  let watched: string | undefined;
  const scope = branch && { blockId: branch.blockId, branchId: branch.branchId };
  const manager = new SentinelManager({
    hankDir: input.hankDir,
    hankweaveDir: input.hankweaveDir,
    agentRoot: branch?.agentRoot ?? input.agentRoot,
    env: input.env,
    // Sentinels on other providers reach the server Pi codons reach, in the same API.
    ...(input.piBaseUrl ? { baseUrl: input.piBaseUrl } : {}),
    ...(input.piApi ? { api: input.piApi } : {}),
    emit: (type, data) => {
      if (!input.abandoned.aborted)
        input.bus.emit(type, (scope ? { ...data, branch: scope } : data) as never);
    },
    models: input.models,
    persistHistory: input.persistHistory,
    onStatesChanged: (states, totalCost) => {
      const context = input.context();
      if (context && watched) recordSentinelStates(context, watched, states, totalCost);
    },
    logger: {
      info: (message) => input.log.info(`Sentinels: ${message}`),
      warn: (message) => input.log.warn(`Sentinels: ${message}`),
    },
  });
  return {
    loadForCodon: async (codon) => {
      // The previous codon's sentinels are unloaded onto its own record before the switch.
      if (manager.states().length > 0) await manager.unload('codon-complete');
      watched = codon.codonId;
      return manager.loadForCodon(codon);
    },
    observe: (event) => manager.observe(event),
    drain: () => manager.drain(),
    unload: (reason) => manager.unload(reason),
    loadedCount: () => manager.loadedCount(),
    ...(branch
      ? {}
      : {
          forBranch: (opened: SentinelBranch) => defaultSentinels(input, opened),
        }),
  };
}

/**
 * Records sentinel counters on codon `codonId`'s newest record while it still holds
 * `sentinels.loaded` (not before `starting`, not after its terminal transition). The record is
 * looked up by codon, not through the current run: a branch's failure ends the run while its
 * siblings' codons are still winding down, their sentinels with them.
 */
function recordSentinelStates(
  context: RuntimeContext,
  codonId: string,
  states: SentinelState[],
  totalCost: number,
): void {
  // Runs are newest first; the watched codon's record is the newest of that codon.
  const run = context.store.state.runs.find((candidate) =>
    candidate.codons.some((record) => record.codonId === codonId),
  );
  const codon = run?.codons.findLast((record) => record.codonId === codonId);
  if (!run || !codon || isTerminalCodonStatus(codon.status) || codon.status === 'preparing') return;
  transition(context, {
    type: 'SentinelStatesUpdated',
    data: { runId: run.runId, codonId, sentinelStates: states, totalCost },
  });
}
