import type { CreateRuntimeOptions } from '../../runtime/create-runtime-options.js';
import type { SandboxMode } from '../../sandbox/containment.js';

/**
 * The part of `@hankweave/scripted-model`'s script format the attacks use (this package does not
 * depend on the scripted model): one conversation per codon, found by a marker in its prompt,
 * whose turns call the agent's own tools. The scripted model turns `bash` and `write` into each
 * agent's tool (Claude Code's `Bash`/`Write`, Pi's `bash`/`write`).
 */
export interface ContainmentScript {
  conversations: {
    match: { marker: string };
    turns: ContainmentTurn[];
  }[];
}

/** One assistant turn: text and tool calls, or a failure the model serves instead. */
export interface ContainmentTurn {
  content?: (
    | { text: string }
    | { bash: string | { command: string; timeoutMs?: number } }
    | { write: { path: string; content: string } }
  )[];
  fail?: { kind: 'http-error'; status: number; type?: string; message?: string };
}

/** A script being served, and how a runtime reaches it. */
export interface ServedModel {
  /** What `createRuntime` needs to send the agent there (`anthropicBaseUrl`, `piBaseUrl`, ...). */
  options: Partial<CreateRuntimeOptions>;
  close(): Promise<void>;
}

/** One agent for {@link describeContainment}: how to serve its model and what it needs to run. */
export interface ContainmentHarness {
  /** Shown in the test titles (`claude-code`, `pi`). */
  name: string;
  /** A model id that runs on this agent (`sonnet` on Claude Code, `gpt-5.2` on Pi). */
  model: string;
  /** Starts a scripted model serving `script`; closed after the case. */
  serve(script: ContainmentScript): Promise<ServedModel>;
  /** The agents' environment for a case whose private home is `home` (HOME, dummy keys, ...). */
  env(home: string): NodeJS.ProcessEnv;
  /**
   * The runtime's `sandbox` option. Default `require`: the kit proves the sandbox, and a machine
   * without one fails every case. `off` shows what each attack does without it.
   */
  sandbox?: SandboxMode;
  /** The time limit of one case. Default 120000. */
  caseTimeoutMs?: number;
}

/** What every case file gets. */
export interface ContainmentContext {
  harness: ContainmentHarness;
  caseTimeoutMs: number;
}
