/**
 * What a failed probe request says about the setup: the credentials were refused, the endpoint
 * could not be reached, the provider does not serve the model under that name, or something else.
 */
export type ProbeFailureKind = 'bad-key' | 'unreachable' | 'model-not-served' | 'other';

/** What is known of a probe that did not succeed: the inputs of {@link classifyProbeFailure}. */
export interface ProbeFailureEvidence {
  /** The agent's error text (its error result, or the failure reason's message). */
  text: string;
  /** The idle watchdog, the agent's own API timeout, or the probe's hard timeout stopped it. */
  timedOut?: boolean;
}

// One rule per kind, first match wins. Status codes are matched as whole numbers, and only once
// URLs are taken out of the text, so a port (`127.0.0.1:4010`) or a path is never a status.
// The order matters: a refused key is said as such even when the agent words it as a connection
// problem afterwards; a 404 for a model is not an unreachable endpoint.
const RULES: readonly { kind: ProbeFailureKind; pattern: RegExp }[] = [
  {
    kind: 'bad-key',
    pattern:
      /(?<!\d)(?:401|403)(?!\d)|authenticat|unauthori[sz]ed|forbidden|permission[_ ]denied|invalid[_ -]?(?:x-)?api[_ -]?key|incorrect api key|api key (?:is )?(?:not valid|invalid|expired)|invalid bearer|\/login\b|oauth token/i,
  },
  {
    kind: 'model-not-served',
    pattern:
      /(?<!\d)404(?!\d)|not[_ ]found_error|model[_ ]not[_ ]found|unknown model|invalid model|model\b[^.]{0,80}\b(?:does not exist|not found|may not exist|is not supported|not available)|no such model|the selected model/i,
  },
  {
    kind: 'unreachable',
    pattern:
      /econnrefused|econnreset|enotfound|eai_again|ehostunreach|enetunreach|etimedout|unable to connect|connection (?:error|refused|dropped|was lost|closed)|fetch failed|socket hang up|getaddrinfo|request timed out|timed out|timeout|network/i,
  },
];

/**
 * Sorts a failed probe into what the person must fix (the doctor's lines): a refused key (401,
 * 403, "authentication", "invalid api key"), a model the provider does not serve (404, "model
 * not found"), an endpoint that cannot be reached (connection refused, DNS, a timeout), or
 * `other`. A probe stopped by a timeout with no other word is `unreachable`: nothing answered.
 */
export function classifyProbeFailure(evidence: ProbeFailureEvidence): ProbeFailureKind {
  const text = evidence.text.replace(/\bhttps?:\/\/\S+/gi, ' ');
  for (const rule of RULES) if (rule.pattern.test(text)) return rule.kind;
  return evidence.timedOut ? 'unreachable' : 'other';
}

// C0 controls but tab, DEL, C1 controls and the bidirectional overrides and isolates, as the CLI
// escapes them: an error text comes from a server and may hold any of them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * An error text made safe for one line of a report: whitespace runs (newlines too) become one
 * space, every other control character is shown escaped (`\u001b`), and the text is cut at
 * `max` characters.
 */
export function oneSafeLine(text: string, max = 300): string {
  const flat = text
    .replace(/[\t\r\n]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
