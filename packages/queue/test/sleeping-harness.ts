import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CreateRuntimeOptions } from '@hankweave/runtime';

// The agent spec's types, reached through the runtime's options (the harness package is not a
// dependency of the queue).
type AgentHarness = NonNullable<CreateRuntimeOptions['harness']>;
type AgentStartOptions = Parameters<AgentHarness['start']>[0];
type AgentSession = Awaited<ReturnType<AgentHarness['start']>>;
type AgentOutcome = Awaited<AgentSession['outcome']>;
type AgentEvent = AgentSession['events'] extends AsyncIterable<infer Event> ? Event : never;

/** What the fake agent of one codon attempt does. */
export interface SleepingAgent {
  /** How long it "works" (default 50 ms). */
  delayMs?: number;
  /** Its final cost in USD (default 0.01). */
  costUsd?: number;
  /** Fail the attempt with this message instead of succeeding. */
  failWith?: string;
}

/**
 * A harness for the queue's tests: each codon's agent announces its session, waits (an I/O-bound
 * agent), then succeeds or fails; `kill()` ends it at once. No process, no model.
 */
export function sleepingHarness(
  agent: SleepingAgent | ((options: AgentStartOptions) => SleepingAgent) = {},
): AgentHarness & { starts: string[] } {
  const starts: string[] = [];
  return {
    name: 'sleeping',
    starts,
    async start(options) {
      starts.push(options.codonId);
      const plan = typeof agent === 'function' ? agent(options) : agent;
      mkdirSync(dirname(options.logPath), { recursive: true });
      appendFileSync(
        options.logPath,
        `${JSON.stringify({ type: 'fake', codon: options.codonId })}\n`,
      );
      let finish: (killed: boolean) => void = () => {};
      const ended = new Promise<boolean>((resolve) => {
        finish = resolve;
      });
      const timer = setTimeout(() => finish(false), plan.delayMs ?? 50);
      const sessionId = `session-${options.codonId}-${starts.length}`;
      const outcome = ended.then((killed): AgentOutcome => {
        clearTimeout(timer);
        const tokens = {
          inputTokens: 0,
          outputTokens: 0,
          cacheCreationTokens: 0,
          cacheReadTokens: 0,
        };
        const base = {
          resultReceived: !killed,
          sessionId,
          finalTokens: tokens,
          contextExceeded: false,
          timedOut: false,
          assistantMessageCount: 1,
        };
        if (killed)
          return { ...base, exitCode: null, signal: 'SIGTERM', finalCost: 0, killed: true };
        if (plan.failWith !== undefined)
          return {
            ...base,
            exitCode: 1,
            finalCost: plan.costUsd ?? 0.01,
            killed: false,
            failureReason: { type: 'unknown', retriable: false, message: plan.failWith },
          };
        return {
          ...base,
          exitCode: 0,
          finalCost: plan.costUsd ?? 0.01,
          killed: false,
          resultText: 'done',
        };
      });
      async function* events(): AsyncGenerator<AgentEvent> {
        yield {
          type: 'session.started',
          timestamp: new Date().toISOString(),
          sessionId,
        } as AgentEvent;
        await outcome;
      }
      const stream = events();
      return {
        pid: 900_000 + starts.length,
        logPath: options.logPath,
        events: stream,
        outcome,
        async kill() {
          finish(true);
          await outcome;
        },
      };
    },
  };
}
