import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFile, readRegularTextFile } from '@hankweave/durable-io';
import { type AgentDecision, parseDecisionFile, parseDecisionMessage } from '@hankweave/sessions';

/** The file an agent of a plateau loop may write its decision to, in its working directory. */
export const DECISION_FILE = 'result.json';

/** What result.json looked like before the agent ran: a decision counts only when written anew. */
export interface DecisionFileBaseline {
  mtimeMs: number;
  digest: string;
}

async function fingerprint(file: string): Promise<DecisionFileBaseline | undefined> {
  try {
    // The agent writes this file: a FIFO in its place must not hang the runtime.
    const [info, content] = await Promise.all([stat(file), readRegularFile(file)]);
    return { mtimeMs: info.mtimeMs, digest: createHash('sha256').update(content).digest('hex') };
  } catch {
    return undefined;
  }
}

/** Takes result.json's fingerprint before the agent starts (undefined: there is none). */
export const decisionFileBaseline = (agentRoot: string) =>
  fingerprint(join(agentRoot, DECISION_FILE));

/** What the agent reported: a decision, a result.json that could not be read as one, or nothing. */
export type ReportedDecision =
  | { kind: 'decision'; decision: AgentDecision }
  | { kind: 'invalid'; problem: string }
  | { kind: 'none' };

/**
 * The decision of one codon of a plateau loop, in the two forms the seed's system used: a
 * `result.json` written during this codon (`{decision, reason}`; it wins, being explicit), else
 * `PLATEAU:` / `REASONING:` lines in the agent's final message. A result.json left over from an
 * earlier codon (same content and time as before the agent ran) is not read again, so one
 * decision is never counted twice.
 */
export async function readReportedDecision(
  agentRoot: string,
  baseline: DecisionFileBaseline | undefined,
  finalMessage: string | undefined,
): Promise<ReportedDecision> {
  const file = join(agentRoot, DECISION_FILE);
  const now = await fingerprint(file);
  const fresh =
    now !== undefined &&
    (baseline === undefined || now.digest !== baseline.digest || now.mtimeMs !== baseline.mtimeMs);
  if (fresh) {
    const parsed = parseDecisionFile(await readRegularTextFile(file));
    if ('problem' in parsed)
      return { kind: 'invalid', problem: `${DECISION_FILE}: ${parsed.problem}` };
    return { kind: 'decision', decision: parsed };
  }
  const fromMessage = finalMessage === undefined ? undefined : parseDecisionMessage(finalMessage);
  return fromMessage ? { kind: 'decision', decision: fromMessage } : { kind: 'none' };
}

/** What a plateau loop's agent is told about reporting its decision (appended to its prompt). */
export function decisionInstructions(loopName: string): string {
  return [
    `This is one iteration of the loop "${loopName}", which stops when its iterations agree that`,
    'further work has reached a plateau. When you finish, end your final message with two lines:',
    'PLATEAU: true (nothing significant left to improve) or PLATEAU: false (more to do)',
    'REASONING: one sentence saying why',
    `(or write ${DECISION_FILE} in the working directory: {"decision": "continue" | "stop" | "error", "reason": "..."}).`,
  ].join('\n');
}
