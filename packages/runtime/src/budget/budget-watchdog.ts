import { DOLLAR_TOLERANCE } from '@hankweave/hank';
import type { AgentEvent, AgentSession } from '@hankweave/harness';
import type { BudgetExceeded, EventData } from '@hankweave/types';
import type { BudgetCurrency, CodonLimits } from './resolve-budget.js';

/** The live dollars of every codon attempt of the execution, summed as they are spent. */
export interface SharedSpend {
  dollars: number;
}

/** What one codon attempt has used so far, in every currency the watchdog tracks. */
export interface BudgetUsage {
  dollars: number;
  outputTokens: number;
  /** High-water mark of one turn's context: input (with cache reads and writes) + output. */
  contextTokens: number;
}

/**
 * Watches one codon attempt against its limits (reference §4.8 "Budget trackers"): every live
 * `token.usage` increment adds dollars and output tokens and raises the per-turn context high-water
 * mark; a timer covers wall time. The first limit crossed calls `onExceeded` once, at once, so the
 * agent is stopped within the turn that crossed it.
 */
export class BudgetWatchdog {
  readonly usage: BudgetUsage = { dollars: 0, outputTokens: 0, contextTokens: 0 };
  #exceeded: BudgetExceeded | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #poolStart: number;

  constructor(
    private readonly limits: CodonLimits,
    private readonly onExceeded: (exceeded: BudgetExceeded) => void,
    /** `Date.now()` when the codon's time began to count. */
    private readonly startedMs: number = Date.now(),
    private readonly now: () => number = Date.now,
    /**
     * A dollar pool shared with codons running at the same time (a parallel block's branches):
     * every attempt adds its live spend to `spend`, and this one stops once everything spent
     * since it started passes `limit` (what the hank's container had left then).
     */
    private readonly pool?: { spend: SharedSpend; limit: number },
  ) {
    this.#poolStart = pool?.spend.dollars ?? 0;
    const seconds = limits.maxTimeSeconds;
    if (seconds !== undefined) {
      const left = Math.max(0, startedMs + seconds * 1000 - now());
      this.#timer = setTimeout(() => {
        this.#breach('duration', seconds, (this.now() - this.startedMs) / 1000);
      }, left);
      this.#timer.unref?.();
    }
  }

  /** The first limit crossed, once one was. */
  get exceeded(): BudgetExceeded | undefined {
    return this.#exceeded;
  }

  /** True when the watchdog has any limit to enforce. */
  get active(): boolean {
    const { maxDollars, maxTimeSeconds, maxOutputTokens, maxContextTokens } = this.limits;
    return [maxDollars, maxTimeSeconds, maxOutputTokens, maxContextTokens].some(
      (limit) => limit !== undefined,
    );
  }

  /** Counts one incremental `token.usage` (final figures are reconciliations, not new spend). */
  observe(data: EventData<'token.usage'>): void {
    const { usage, limits } = this;
    usage.dollars += Math.max(0, data.totalCost);
    usage.outputTokens += Math.max(0, data.outputTokens);
    const turn =
      data.inputTokens + data.cacheReadTokens + data.cacheCreationTokens + data.outputTokens;
    usage.contextTokens = Math.max(usage.contextTokens, turn);
    const pool = this.pool;
    if (pool) {
      pool.spend.dollars += Math.max(0, data.totalCost);
      const since = pool.spend.dollars - this.#poolStart;
      if (since > pool.limit + DOLLAR_TOLERANCE) {
        this.#breach('cost', pool.limit, since);
        return;
      }
    }
    // Spending the limit itself is not passing it; float noise of summed costs is no overspend.
    if (limits.maxDollars !== undefined && usage.dollars > limits.maxDollars + DOLLAR_TOLERANCE)
      this.#breach('cost', limits.maxDollars, usage.dollars);
    else if (limits.maxOutputTokens !== undefined && usage.outputTokens > limits.maxOutputTokens)
      this.#breach('outputTokens', limits.maxOutputTokens, usage.outputTokens);
    else if (limits.maxContextTokens !== undefined && usage.contextTokens > limits.maxContextTokens)
      this.#breach('contextTokens', limits.maxContextTokens, usage.contextTokens);
  }

  /**
   * The session as the runtime consumes it, with every live usage increment counted on the way
   * through (the events themselves are unchanged).
   */
  watch(session: AgentSession): AgentSession {
    const watchdog = this;
    const events: AsyncIterable<AgentEvent> = {
      async *[Symbol.asyncIterator]() {
        for await (const event of session.events) {
          if (event.type === 'token.usage' && !event.final) watchdog.observe(event.data);
          yield event;
        }
      },
    };
    return {
      pid: session.pid,
      logPath: session.logPath,
      events,
      kill: (reason) => session.kill(reason),
      outcome: session.outcome,
    };
  }

  /** Stops the timer (the attempt is over). */
  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #breach(currency: BudgetCurrency, limit: number, used: number): void {
    if (this.#exceeded) return;
    this.#exceeded = { currency, limit, used };
    this.dispose();
    this.onExceeded(this.#exceeded);
  }
}

/** "cost 0.0270 > 0.0010 USD": a budget breach for messages. */
export function describeExceeded({ currency, limit, used }: BudgetExceeded): string {
  switch (currency) {
    case 'cost':
      return `cost $${used.toFixed(4)} > $${limit.toFixed(4)}`;
    case 'duration':
      return `time ${used.toFixed(1)}s ≥ ${limit}s`;
    default:
      return `${currency} ${used} > ${limit}`;
  }
}
