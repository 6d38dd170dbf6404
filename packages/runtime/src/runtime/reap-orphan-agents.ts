import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { sleep } from '@hankweave/durable-io';
import { isPidAlive, type PreviousLockHolder } from '@hankweave/state';
import { type HankweaveState, isTerminalCodonStatus } from '@hankweave/types';
import type { RuntimeLogger } from '../events/server-log.js';

/**
 * Set in every agent's environment: the run that started it. A runtime killed with SIGKILL cannot
 * stop its agent (which runs in its own process group), so the next runtime on the execution
 * finds the orphan by this mark and stops it before its own run touches the same files.
 */
export const AGENT_RUN_ENV = 'HANKWEAVE_AGENT_RUN_ID';

/** Reads a process's environment block; undefined when it cannot be read (gone, other user, not Linux). */
export type ReadEnviron = (pid: number) => Promise<string | undefined>;

const procEnviron: ReadEnviron = (pid) =>
  readFile(`/proc/${pid}/environ`, 'latin1').catch(() => undefined);

export interface ReapOptions {
  /** Who held runtime.lock before this runtime: its machine decides whether we can reach it. */
  previous: PreviousLockHolder | undefined;
  log: RuntimeLogger;
  graceMs: number;
  readEnviron?: ReadEnviron;
  signal?: (pid: number, signal: NodeJS.Signals) => void;
}

/**
 * Stops the agents that runs of a dead runtime left behind (their codons still active, their
 * `claudePid` still alive and carrying {@link AGENT_RUN_ENV} of that run): SIGTERM to the process
 * group, SIGKILL after `graceMs`. A pid is only trusted with its mark (pids are reused), and only
 * on the machine that wrote the lock. Returns the pids stopped.
 */
export async function reapOrphanAgents(
  state: HankweaveState,
  options: ReapOptions,
): Promise<number[]> {
  const holder = options.previous?.lock?.hostname;
  if (holder !== undefined && holder !== hostname()) return [];
  const readEnviron = options.readEnviron ?? procEnviron;
  const signal = options.signal ?? ((pid, name) => process.kill(-pid, name));
  const reaped: number[] = [];
  for (const run of state.runs) {
    if (run.status !== 'running') continue;
    for (const codon of run.codons) {
      const pid = (codon as { claudePid?: number }).claudePid;
      if (isTerminalCodonStatus(codon.status) || pid === undefined || !isPidAlive(pid)) continue;
      const environ = await readEnviron(pid);
      if (!environ?.split('\0').includes(`${AGENT_RUN_ENV}=${run.runId}`)) continue;
      options.log.warn(
        `The agent of codon ${codon.codonId} (pid ${pid}) outlived its runtime (run ${run.runId}): stopping it`,
      );
      await stopGroup(pid, signal, options.graceMs);
      reaped.push(pid);
    }
  }
  return reaped;
}

async function stopGroup(
  pid: number,
  signal: (pid: number, signal: NodeJS.Signals) => void,
  graceMs: number,
): Promise<void> {
  const send = (name: NodeJS.Signals) => {
    try {
      signal(pid, name);
    } catch {
      // Gone meanwhile.
    }
  };
  send('SIGTERM');
  for (let waited = 0; waited < graceMs && isPidAlive(pid); waited += 50) await sleep(50);
  if (isPidAlive(pid)) send('SIGKILL');
}
