import type { ModelCatalog, TokenUsage } from '@hankweave/types';

/** Options of `AgentLogParser`. */
export interface AgentLogParserOptions {
  /** Put into every event payload. */
  codonId: string;
  /** The requested model: prices lines that do not name theirs. */
  model?: string;
  /** When true, a `system/compact_boundary` line counts as context exceeded (reference §4.5). */
  autoCompact?: boolean;
  /** Prices the usage of every model. Default `defaultModelCatalog` of `@hankweave/types`. */
  models?: ModelCatalog;
  /**
   * The session was resumed (`--resume`): the agent's `total_cost_usd` then includes earlier
   * processes, so the final cost is priced from this process's usage instead (see `computeFinalCost`).
   */
  resumed?: boolean;
  /** Clock for lines without a `timestamp`. */
  now?: () => Date;
}

/** What the parser knows after the lines so far: the evidence for the outcome. */
export interface AgentLogState {
  sessionId?: string;
  model?: string;
  claudeCodeVersion?: string;
  /** Lines pushed, blank ones excluded. */
  lineCount: number;
  /** Lines that were not JSON objects (a torn last line, foreign output). */
  unparsedLineCount: number;
  resultReceived: boolean;
  /** A `success` result without `is_error` arrived. */
  successResult: boolean;
  /** Text of the first error result, unless a success result came before it. */
  errorResultText?: string;
  /** The `result` text of the first success result: the agent's final message. */
  successResultText?: string;
  syntheticTimeout: boolean;
  /** The log has the harness's kill note: the agent was stopped on purpose. */
  killNoted: boolean;
  contextExceeded: boolean;
  assistantMessageCount: number;
  /** Running totals from the assistant lines (the deltas). */
  tokens: TokenUsage;
  cost: number;
  /** Tool calls without a result yet (the agent was stopped mid tool use). */
  pendingToolUseCount: number;
}
