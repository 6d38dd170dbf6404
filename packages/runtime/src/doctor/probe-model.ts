import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentHarness, AgentOutcome } from '@hankweave/harness';

/** The prompt of a probe: one line, a marker a model script can match (`hankweave doctor`). */
export const PROBE_PROMPT = 'hankweave doctor: reply with the single word OK and use no tools.';

/** How long a probe may take. */
export interface ProbeTimeouts {
  /** Stop the agent when it prints nothing for this long (its idle watchdog). */
  idleTimeoutMs: number;
  /** Stop the agent after this long, whatever it does. */
  hardTimeoutMs: number;
  /** Claude Code's own wait for an answer's headers (`API_TIMEOUT_MS`). */
  apiTimeoutMs: number;
}

/** How one probe went: the agent's outcome, or the error its start threw. */
export type ProbeResult =
  | { started: true; outcome: AgentOutcome; latencyMs: number; hardTimeout: boolean }
  | { started: false; error: unknown };

/**
 * Sends one minimal request through `harness`: a fresh agent on `model` with a one-line prompt,
 * in a temporary directory (its working directory and log) that is removed afterwards. The
 * probe's own environment makes the agent fail fast instead of retrying: Claude Code with no
 * retries (`CLAUDE_CODE_MAX_RETRIES=0`) and a short `API_TIMEOUT_MS`, over the codon's `env`
 * (its own key or base URL); the caller builds Pi without retries. Never rejects.
 */
export async function probeModel(
  harness: AgentHarness,
  model: string,
  timeouts: ProbeTimeouts,
  codonEnv: Readonly<Record<string, string>> = {},
): Promise<ProbeResult> {
  const dir = await mkdtemp(join(tmpdir(), 'hankweave-doctor-'));
  const abort = new AbortController();
  let hardTimeout = false;
  const timer = setTimeout(() => {
    hardTimeout = true;
    abort.abort();
  }, timeouts.hardTimeoutMs);
  try {
    const cwd = join(dir, 'work');
    await mkdir(cwd);
    const started = Date.now();
    const session = await harness.start({
      codonId: 'doctor',
      runId: 'doctor',
      model,
      prompt: PROBE_PROMPT,
      cwd,
      logPath: join(dir, 'probe.log'),
      idleTimeoutMs: timeouts.idleTimeoutMs,
      signal: abort.signal,
      env: {
        ...codonEnv,
        CLAUDE_CODE_MAX_RETRIES: '0',
        API_TIMEOUT_MS: String(timeouts.apiTimeoutMs),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });
    const outcome = await session.outcome;
    return { started: true, outcome, latencyMs: Date.now() - started, hardTimeout };
  } catch (error) {
    return { started: false, error };
  } finally {
    clearTimeout(timer);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
