// The part of @hankweave/scripted-model's script format the conformance cases use, written out
// here so that this package does not depend on the scripted model. A script of this shape is a
// valid `ScriptInput`: the scripted model answers it in every API it speaks, so the same cases
// drive Claude Code (Anthropic Messages) and Pi (OpenAI Chat Completions).

/** One block of an assistant turn: text, or a file write through the agent's own write tool. */
export type ConformanceBlock = { text: string } | { write: { path: string; content: string } };

/** A failure the model serves instead of a turn. */
export type ConformanceFailure =
  | { kind: 'rate-limit'; retryAfterSeconds?: number }
  | { kind: 'server-error' }
  | { kind: 'prompt-too-long' }
  | { kind: 'http-error'; status: number; type?: string; message?: string }
  | { kind: 'stall' };

/** One assistant turn (or a failure), with the token usage the model reports for it. */
export interface ConformanceTurn {
  content?: ConformanceBlock[];
  usage?: { inputTokens?: number; outputTokens?: number };
  fail?: ConformanceFailure;
}

/** A script of one conversation per case. */
export interface ConformanceScript {
  conversations: { turns: ConformanceTurn[] }[];
}
