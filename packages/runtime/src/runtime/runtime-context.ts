import type { CheckpointEngine } from '@hankweave/checkpoints';
import type { ChangeScanner, UnifiedFileResolver } from '@hankweave/files';
import type { AgentHarness, SandboxPolicy } from '@hankweave/harness';
import type { EventJournal } from '@hankweave/journal';
import { currentRun, runCost, type StateStore, totalCost } from '@hankweave/state';
import {
  createEventId,
  type EventData,
  type HankConfig,
  type HankweaveEvent,
  type HankweaveState,
  type JournaledEventType,
  type ModelCatalog,
  type StateTransition,
} from '@hankweave/types';
import type { SharedSpend } from '../budget/budget-watchdog.js';
import type { BudgetSources } from '../budget/resolve-budget.js';
import type { AgentRootWatch, FileWatchSettings } from '../codon/agent-root-watch.js';
import type { DataSourceWatches } from '../data-guard/data-source-watches.js';
import type { RuntimeBus } from '../events/event-bus.js';
import type { RuntimeLogger } from '../events/server-log.js';
import type { ExecutionLayout } from '../execution/layout.js';
import type { Containment, SandboxMode } from '../sandbox/containment.js';
import type { SessionTracker } from '../session-tracking/session-tracker.js';
import type { SentinelHost } from './sentinel-host.js';

/** Settings that shape a run, resolved from `createRuntime` options. */
export interface RuntimeSettings {
  autostart: boolean;
  /** False: `start()` opens no continuation run (a runtime opened only to roll back). */
  openRunAtStart?: boolean;
  /** Turn "stay active" after a retriable failure into fail + shutdown (the CLI's --headless). */
  headless: boolean;
  idleTimeoutMs?: number;
  ignoreRigFailures: boolean;
  rigCommandTimeoutMs?: number;
  /** The environment agents and rig commands start from. */
  env: NodeJS.ProcessEnv;
  anthropicBaseUrl?: string;
  /** An OpenAI-compatible server for every Pi codon (a scripted model's `/v1`, Ollama, vLLM). */
  piBaseUrl?: string;
  /** Pi's own request retries; undefined keeps Pi's default (on). */
  piRetries?: boolean;
  /** The API family Pi speaks to a base URL; undefined: the provider's own. */
  piApi?: string;
  /** Grace period between SIGTERM and SIGKILL when stopping an agent. */
  killGraceMs: number;
  /** Absolute; where completed codons' `outputFiles` are copied (none: they are not copied). */
  outputDirectory?: string;
  /** Output files replace files of the same name instead of being renamed. */
  overwriteOutput?: boolean;
  /** The runtime budget and the CLI's `--max-cost` / `--max-time` (reference §1.7). */
  budget?: BudgetSources;
  /** Whether processes run in the OS sandbox: `auto`, `require` or `off`. */
  sandbox: SandboxMode;
  /** When agentRoot's scans come from file-system events (`fileWatch.*`). */
  fileWatch: FileWatchSettings;
}

/**
 * The parallel branch a context works in (issue 36): its codons run in the branch's own work tree
 * (`layout.agentRoot` is that tree) and checkpoint on their own git branch.
 */
export interface BranchScope {
  readonly blockId: string;
  readonly branchId: string;
  /** File- and ref-safe, unique per block and branch: the work tree's name and directory. */
  readonly name: string;
}

/** Everything the runtime's parts share: the open stores, the bus, the loaded hank. */
export interface RuntimeContext {
  readonly config: HankConfig;
  readonly hankDir: string;
  readonly hankPath: string;
  readonly layout: ExecutionLayout;
  readonly store: StateStore;
  readonly journal: EventJournal;
  readonly engine: CheckpointEngine;
  readonly harness: AgentHarness;
  readonly sentinels: SentinelHost;
  /** Seed 004's session files of this execution (registry, loop and pipeline state). */
  readonly sessions: SessionTracker;
  /** The execution's one ordered bus; in a parallel branch's context, the branch's view of it. */
  readonly bus: RuntimeBus;
  readonly log: RuntimeLogger;
  readonly resolver: UnifiedFileResolver;
  readonly scanner: ChangeScanner;
  /** Feeds `scanner` from agentRoot's file events once the tree is big; none in a branch. */
  readonly fileWatch: AgentRootWatch | undefined;
  /** The data sources' file events, for the data guard; shared by every branch of a block. */
  readonly dataWatch: DataSourceWatches;
  readonly settings: RuntimeSettings;
  /** The containment of this run: the OS sandbox, or none and why. */
  readonly containment: Containment;
  /** The sandbox of every process started for the hank; undefined without one. */
  readonly sandbox: SandboxPolicy | undefined;
  /** Model ids, aliases and prices: used by the default harness and the sentinels. */
  readonly models: ModelCatalog;
  readonly clock: () => Date;
  readonly startedAt: number;
  /**
   * Aborted by a forced shutdown (reference §5.8 `forceShutdown`: no checkpoints, no transitions):
   * from then on the runtime records and announces nothing more, so a codon that is still winding
   * down cannot write into closed stores. The next start finds its run crashed and recovers.
   */
  readonly abandoned: AbortSignal;
  /** Live dollars of every attempt, shared by the branches of a parallel block (budget pool). */
  readonly liveSpend: SharedSpend;
  /** Set in a parallel branch's context (see `parallel/branch-context.ts`); absent in agentRoot's. */
  readonly branch?: BranchScope;
}

/**
 * Applies one state transition and journals it as `state.transition` (every change of state is
 * one transition, also on the bus). Returns the new state.
 *
 * @throws {StateError} when the reducer refuses it; nothing is emitted then.
 */
export function transition(context: RuntimeContext, change: StateTransition): HankweaveState {
  if (context.abandoned.aborted) return context.store.state;
  const state = context.store.apply(change);
  const data = change.data as { runId?: string; codonId?: string };
  const run = currentRun(state);
  context.bus.emit('state.transition', {
    transitionType: change.type,
    ...(data.runId !== undefined ? { runId: data.runId } : {}),
    ...(data.codonId !== undefined ? { codonId: data.codonId } : {}),
    transition: { type: change.type, data: change.data },
    resultingState: {
      currentRunId: state.currentRunId,
      runCount: state.runs.length,
      totalCost: totalCost(state),
      currentRunCost: run ? runCost(run) : 0,
    },
  });
  return state;
}

/** Emits a journaled event on the bus. */
export function emit<T extends JournaledEventType>(
  context: RuntimeContext,
  type: T,
  data: EventData<T>,
): HankweaveEvent<T> {
  if (context.abandoned.aborted) {
    // Nothing is published after a forced shutdown; the caller still gets its event object.
    return {
      id: createEventId(),
      type,
      timestamp: context.clock().toISOString(),
      data,
    } as HankweaveEvent<T>;
  }
  return context.bus.emit(type, data);
}

/** Emits an `info` event and logs it. */
export function info(context: RuntimeContext, message: string): void {
  context.log.info(message);
  emit(context, 'info', { message });
}

/** Emits an `error` event and logs it. */
export function reportError(
  context: RuntimeContext,
  message: string,
  options: {
    severity: 'fatal' | 'codon' | 'operation' | 'warning';
    codon?: string;
    code?: string;
    context?: unknown;
  },
): void {
  if (context.abandoned.aborted) {
    // What a codon abandoned by a forced shutdown runs into (closed stores) is not news.
    context.log.debug(`After the forced shutdown: ${message}`);
    return;
  }
  if (options.severity === 'warning') context.log.warn(message);
  else context.log.error(message);
  emit(context, 'error', {
    message,
    fatal: options.severity === 'fatal',
    severity: options.severity,
    ...(options.codon !== undefined ? { codon: options.codon } : {}),
    ...(options.code !== undefined ? { code: options.code } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
  });
}
