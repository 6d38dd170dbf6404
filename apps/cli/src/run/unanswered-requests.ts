import type { Terminal } from '../output/terminal.js';

/** A request the scripted model answered with its own error (what the script lacked). */
export interface UnansweredRequest {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * After a dry run: what the script lacked, one warning per fault with its own next step. A
 * conversation one turn short is named with the turn it lacks (the agent's retries ask for the
 * same turn again, so the count says how often, not how many turns are missing); a request no
 * conversation matched points at the markers.
 */
export function reportUnanswered(
  terminal: Terminal,
  requests: readonly UnansweredRequest[],
  scriptPath: string,
): void {
  const faults = new Map<string, { request: UnansweredRequest; count: number }>();
  for (const request of requests) {
    const key = `${request.code}\u0000${request.message}`;
    const known = faults.get(key);
    if (known) known.count++;
    else faults.set(key, { request, count: 1 });
  }
  const { style } = terminal;
  for (const { request, count } of faults.values()) {
    const times = count > 1 ? ` (the agent sent that request ${count} times)` : '';
    const { what, next } = describeFault(request, scriptPath);
    terminal.err(style.yellow(`! The scripted model had no answer: ${what}${times}`));
    terminal.err(style.dim(`→ ${next}`));
  }
}

function describeFault(
  request: UnansweredRequest,
  scriptPath: string,
): { what: string; next: string } {
  const conversation = request.details?.conversation;
  const turn = request.details?.turn;
  if (
    request.code === 'SCRIPTED_MODEL_NO_TURN' &&
    typeof conversation === 'string' &&
    typeof turn === 'number'
  ) {
    if (/no alternative/.test(request.message))
      return {
        what: `in conversation "${conversation}", no alternative of turn ${turn + 1} has a \`when\` that holds for the agent's request`,
        next: `Give turn ${turn + 1} of conversation "${conversation}" in ${scriptPath} an alternative without \`when\` (or one whose \`when\` holds).`,
      };
    return {
      what: `conversation "${conversation}" has ${turn} turn(s), and the agent asked for turn ${turn + 1}`,
      next: `Add a turn to conversation "${conversation}" in ${scriptPath}: each turn answers one request of the agent, and the last one should answer with text only (no tool call), so the agent ends its codon.`,
    };
  }
  if (request.code === 'SCRIPTED_MODEL_NO_CONVERSATION')
    return {
      what: 'no conversation of the script matches a request (no match.marker found in it, and no conversation without a marker)',
      next: `Give each codon a conversation in ${scriptPath} whose match.marker is a phrase of that codon's prompt (see @hankweave/scripted-model's README).`,
    };
  return {
    what: `${request.code}: ${request.message}`,
    next: `Check ${scriptPath} against @hankweave/scripted-model's README.`,
  };
}
