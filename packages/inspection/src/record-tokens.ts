import type { CodonExecution, TokenUsage } from '@hankweave/types';

/** The tokens a record counts: final once completed, partial once failed or skipped, else live. */
export function recordTokens(record: CodonExecution): TokenUsage | undefined {
  switch (record.status) {
    case 'completed':
      return record.finalTokens;
    case 'failed':
    case 'skipped':
      return record.partialTokens;
    case 'running':
    case 'completing-sentinels':
      return record.currentTokens;
    default:
      return undefined;
  }
}
