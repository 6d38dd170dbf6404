import type { ModelCatalog } from '@hankweave/types';
import type { AgentHarness, AgentStartOptions } from '../../agent-harness.js';
import type { ConformanceScript } from './conformance-script.js';

/** A request the scripted model received, as far as the cases look at it. */
export interface ConformanceRequest {
  /** Where it landed in the script; absent for side requests and the server's own errors. */
  match?: {
    /** The turn of the conversation it was answered from (= assistant messages before it). */
    turn: number;
    /** `content` when the turn's content was served, `failure` when its failure was. */
    served: 'content' | 'failure';
  };
}

/** A script being served, and how the agent reaches it. */
export interface ServedScript {
  /**
   * What the agent's environment needs to reach the served model (its base URL, a dummy key, the
   * agent's own API retries off), merged into every start's `env`.
   */
  env: Readonly<Record<string, string>>;
  /** The requests the model received so far, in arrival order. */
  requests(): readonly ConformanceRequest[];
}

/** One case's harness and surroundings: made fresh per case, so cases may run concurrently. */
export interface ConformanceRig {
  /** The harness under test. */
  harness: AgentHarness;
  /** Starts a scripted model serving `script` (closed by `dispose`). */
  serve(script: ConformanceScript): Promise<ServedScript>;
  /**
   * Start options for one attempt: the rig's working directory, a fresh log path per call, a model
   * the catalog prices, and `overrides` applied last.
   */
  startOptions(overrides?: Partial<AgentStartOptions>): AgentStartOptions;
  /** The catalog the harness prices with. Default `defaultModelCatalog`. */
  models?: ModelCatalog;
  /** Stops what `serve` started and removes the rig's directories. */
  dispose(): Promise<void>;
}

/** Makes a fresh rig; called once per case. */
export type HarnessConformanceSetup = () => Promise<ConformanceRig>;

/** Tuning of {@link describeHarnessConformance} for slow agents. */
export interface HarnessConformanceOptions {
  /** The time limit of one case. Default 30000. */
  caseTimeoutMs?: number;
  /** The idle timeout of the idle case. Default 3000. */
  idleTimeoutMs?: number;
}
