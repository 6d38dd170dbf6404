import type { ReplayPacingOptions } from './execution-replay-harness.js';

// Its own file: `CreateRuntimeOptions` names it, and `withReplay` reads those options.

/** The `replay` option of `createRuntime`: the recorded execution, and the pacing. */
export interface ReplayOptions extends ReplayPacingOptions {
  /** The execution directory whose agent logs are replayed (ours or the original runtime's). */
  executionDir: string;
}
