import type { AttemptOutcome, SessionOutcome } from '@hankweave/hank';

/**
 * The outcomes of a case as plain data (a child process gets it as JSON): explicit outcomes by
 * runtime codon id and attempt, and what every other attempt does.
 */
export interface OutcomeTable {
  /** `outcomes[codonId][attempt]`; a missing entry plays `fallback`. */
  outcomes: Record<string, (AttemptOutcome | null)[]>;
  /** What an attempt without an entry does: `ok` sessions at one cost unit each. */
  fallbackCost: number;
  /**
   * The codons (hank.json ids) of `contextExceeded` loops: from iteration `overflowFrom` on, an
   * attempt without an entry overflows at once, so such a loop always ends.
   */
  contextLoops: { codonIds: string[]; overflowFrom: number };
  /** Sessions an attempt may reach: 1 + the largest `maxExtensions` of the hank. */
  maxSessions: number;
  /**
   * Files the agent writes as each attempt of a codon (hank.json id) starts, relative to its
   * agentRoot, with the runtime codon id as content: branches that write the same file conflict
   * when their block merges.
   */
  writes?: Record<string, string>;
}

/**
 * The outcome function of a table, with a session for every index the runtime may reach (the
 * interpreter and the outcome agent then see exactly the same sessions).
 */
export function tableOutcome(
  table: OutcomeTable,
): (codonId: string, attempt: number) => AttemptOutcome {
  const ok: SessionOutcome = { end: 'ok', cost: table.fallbackCost };
  return (codonId, attempt) => {
    const given = table.outcomes[codonId]?.[attempt] ?? undefined;
    const [base, iteration] = codonId.split('#');
    const overflows =
      iteration !== undefined &&
      Number(iteration) >= table.contextLoops.overflowFrom &&
      table.contextLoops.codonIds.includes(base ?? '');
    const outcome: AttemptOutcome =
      given ??
      (overflows ? { sessions: [{ end: 'context-exceeded', cost: table.fallbackCost }] } : {});
    const sessions = [...(outcome.sessions ?? [])];
    while (sessions.length < table.maxSessions) sessions.push(ok);
    return { ...outcome, sessions };
  };
}
