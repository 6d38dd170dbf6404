import { readFile } from 'node:fs/promises';
import { sleep } from '@hankweave/durable-io';
import { defaultModelCatalog, type ModelCatalog } from '@hankweave/types';
import type { AgentEvent } from '../../agent-event.js';
import type { AgentOutcome, AgentSession, AgentStartOptions } from '../../agent-harness.js';
import type { ConformanceScript } from './conformance-script.js';
import type {
  ConformanceRig,
  HarnessConformanceOptions,
  HarnessConformanceSetup,
  ServedScript,
} from './conformance-setup.js';

/** What every case file gets. */
export interface ConformanceContext {
  setup: HarnessConformanceSetup;
  options: Required<HarnessConformanceOptions>;
}

/** A rig with its script served, for the body of one case. */
export interface CaseRig {
  rig: ConformanceRig;
  served: ServedScript;
  models: ModelCatalog;
  /** Starts the harness with the rig's options, the served env and `overrides`. */
  start(overrides?: Partial<AgentStartOptions>): Promise<{
    session: AgentSession;
    options: AgentStartOptions;
  }>;
}

/** Runs `body` on a fresh rig serving `script`, and disposes of the rig whatever happens. */
export async function withRig(
  context: ConformanceContext,
  script: ConformanceScript,
  body: (rig: CaseRig) => Promise<void>,
): Promise<void> {
  const rig = await context.setup();
  try {
    const served = await rig.serve(script);
    await body({
      rig,
      served,
      models: rig.models ?? defaultModelCatalog,
      async start(overrides = {}) {
        const options = rig.startOptions({
          ...overrides,
          env: { ...served.env, ...overrides.env },
        });
        return { session: await rig.harness.start(options), options };
      },
    });
  } finally {
    await rig.dispose();
  }
}

/** Every event of a session, and its outcome. */
export async function runToEnd(
  session: AgentSession,
): Promise<{ events: AgentEvent[]; outcome: AgentOutcome }> {
  const events: AgentEvent[] = [];
  for await (const event of session.events) events.push(event);
  return { events, outcome: await session.outcome };
}

/** The events of one type, narrowed. */
export const ofType = <T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

/** The lines of an agent log, parsed (a line that is not JSON fails the case). */
export async function readLogLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits until the model has served a turn's failure (a stalled request is in flight). */
export async function untilFailureServed(served: ServedScript, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!served.requests().some((request) => request.match?.served === 'failure')) {
    if (Date.now() > deadline) {
      throw new Error(`The agent sent the scripted model no request within ${timeoutMs} ms`);
    }
    await sleep(50);
  }
}
