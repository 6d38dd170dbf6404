import { describe } from 'vitest';
import { apiErrorCases } from './cases/api-error-cases.js';
import { contextExceededCases } from './cases/context-exceeded-cases.js';
import { idleTimeoutCases } from './cases/idle-timeout-cases.js';
import { resumeCases } from './cases/resume-cases.js';
import { startCases } from './cases/start-cases.js';
import { stopCases } from './cases/stop-cases.js';
import { toolCases } from './cases/tool-cases.js';
import type { ConformanceContext } from './conformance-helpers.js';
import type { HarnessConformanceOptions, HarnessConformanceSetup } from './conformance-setup.js';

const DEFAULT_CASE_TIMEOUT_MS = 30_000;
const DEFAULT_IDLE_TIMEOUT_MS = 3000;

/**
 * Registers the conformance cases of the agent spec for one adapter, run against its real agent on
 * a scripted model: a successful run (event order, outcome, catalog cost, the Claude-style log, a
 * re-parse and a replay of it), a tool call that writes a file, resume with a session id, stop by
 * `kill()` and by the abort signal, the idle timeout, API errors (429, 500, 400) and context
 * exceeded. `setup` makes a fresh rig per case (one conversation each), so the cases run
 * concurrently. Call it at the top level of a test file; it uses vitest's explicit imports.
 */
export function describeHarnessConformance(
  name: string,
  setup: HarnessConformanceSetup,
  options: HarnessConformanceOptions = {},
): void {
  const context: ConformanceContext = {
    setup,
    options: {
      caseTimeoutMs: options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    },
  };
  describe.concurrent(`AgentHarness conformance: ${name}`, () => {
    startCases(context);
    toolCases(context);
    resumeCases(context);
    stopCases(context);
    idleTimeoutCases(context);
    apiErrorCases(context);
    contextExceededCases(context);
  });
}
