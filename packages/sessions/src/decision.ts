/** What an agent reported at the end of a plateau loop's iteration. */
export interface AgentDecision {
  /** `stop`: the work has reached a plateau; `error`: the loop must stop as failed. */
  decision: 'continue' | 'stop' | 'error';
  reason: string | null;
  source: 'message' | 'result.json';
}

// `KEY: value` with what agents wrap around it: indentation, a list bullet or number, a heading
// or quote marker, markdown bold or italics around the key (`**PLATEAU:** true`, `**PLATEAU**:`).
const KEY_LINE =
  /^\s*(?:>\s*)*(?:#{1,6}\s+)?(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__|\*|_)?\s*(PLATEAU|REASONING)\s*(?:\*\*|__|\*|_)?\s*:\s*(?:\*\*|__|\*|_)?(.*)$/i;
// The answer must be the whole first word: `true|false` (the format quoted back) is no answer.
const PLATEAU_VALUE = /^[`"']?(true|false|yes|no)[`"']?(?![\w|/])/i;
const TRAILING_EMPHASIS = /\s*(?:\*\*|__|\*|_)\s*$/;

/**
 * Reads a decision from an agent's final message: lines `PLATEAU: true|false` (or yes/no) and
 * `REASONING: ...`. Keys are case-insensitive and may be indented, bulleted or in bold
 * (`**PLATEAU:** true`). The last PLATEAU line with an answer wins (true → `stop`, false →
 * `continue`); `reason` is the text after the colon of the last REASONING line, trimmed (null
 * when there is none). Undefined when no PLATEAU line answers.
 */
export function parseDecisionMessage(text: string): AgentDecision | undefined {
  let plateau: boolean | undefined;
  let reason: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    const key = (match[1] ?? '').toUpperCase();
    const value = (match[2] ?? '').replace(TRAILING_EMPHASIS, '').trim();
    if (key === 'REASONING') {
      reason = value === '' ? null : value;
      continue;
    }
    const answer = PLATEAU_VALUE.exec(value)?.[1]?.toLowerCase();
    if (answer !== undefined) plateau = answer === 'true' || answer === 'yes';
  }
  if (plateau === undefined) return undefined;
  return { decision: plateau ? 'stop' : 'continue', reason, source: 'message' };
}

const DECISIONS = ['continue', 'stop', 'error'] as const;

/**
 * Reads a `result.json` decision: `{"decision": "continue" | "stop" | "error", "reason": "..."}`
 * (the decision is matched case-insensitively; other fields are ignored). Returns `{problem}`,
 * a sentence naming what is wrong, when the text is not a JSON object or has no such decision.
 */
export function parseDecisionFile(text: string): AgentDecision | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { problem: `result.json is not valid JSON (${detail})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      problem: 'result.json must be a JSON object like {"decision": "stop", "reason": "..."}',
    };
  }
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  const normalised = typeof decision === 'string' ? decision.trim().toLowerCase() : undefined;
  const known = DECISIONS.find((candidate) => candidate === normalised);
  if (known === undefined) {
    return {
      problem: `result.json "decision" must be one of ${DECISIONS.join(', ')} (got ${JSON.stringify(decision) ?? 'nothing'})`,
    };
  }
  return {
    decision: known,
    reason: typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : null,
    source: 'result.json',
  };
}
