import { join } from 'node:path';
import { type Fs, moveAsideAsCorrupt, nodeFs, writeFileAtomic } from '@hankweave/durable-io';
import {
  legacySentinelHistorySchema,
  type SentinelConfig,
  type SentinelHistoryFile,
  type SentinelHistoryTurn,
  sentinelHistoryFileSchema,
} from '@hankweave/types';
import type { SentinelLogger } from '../options.js';

type Trimming = NonNullable<SentinelConfig['conversational']>['trimmingStrategy'];

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
const tokensOf = (turn: SentinelHistoryTurn): number =>
  turn.tokenCount ?? estimateTokens(turn.content);

/** Keeps the newest turns that fit the strategy; pairs are dropped whole, oldest first. */
export function trimTurns(turns: SentinelHistoryTurn[], trimming: Trimming): SentinelHistoryTurn[] {
  let kept = [...turns];
  if (trimming.type === 'maxTurns') {
    const pairs = kept.filter((turn) => turn.role === 'user').length;
    for (let excess = pairs - trimming.maxTurns; excess > 0; excess--) kept = dropOldestPair(kept);
    return kept;
  }
  let total = kept.reduce((sum, turn) => sum + tokensOf(turn), 0);
  while (total > trimming.maxTokens && kept.length > 0) {
    const next = dropOldestPair(kept);
    total -= kept.slice(0, kept.length - next.length).reduce((sum, t) => sum + tokensOf(t), 0);
    kept = next;
  }
  return kept;
}

// A pair is a user turn and the replies up to the next user turn.
function dropOldestPair(turns: SentinelHistoryTurn[]): SentinelHistoryTurn[] {
  const nextUser = turns.findIndex((turn, index) => index > 0 && turn.role === 'user');
  return nextUser === -1 ? [] : turns.slice(nextUser);
}

/**
 * A conversational sentinel's history at `sentinels/history/{sentinelId}-codon-{codonId}.json`
 * (seed 001). Reads the seed format and the original's array format; a corrupt file is moved
 * aside (`.corrupt-<ms>`) and the conversation starts over, with a warning.
 */
export class HistoryStore {
  readonly path: string;
  private turns: SentinelHistoryTurn[] | undefined;

  constructor(
    hankweaveDir: string,
    sentinelId: string,
    codonId: string,
    private readonly trimming: Trimming,
    private readonly logger: SentinelLogger,
    private readonly now: () => number,
    private readonly fs: Fs = nodeFs,
    /** False: the history lives in memory only (`enablePersistence: false`). */
    private readonly persist = true,
  ) {
    this.path = join(hankweaveDir, 'sentinels', 'history', `${sentinelId}-codon-${codonId}.json`);
  }

  /** The turns to send before the new user message, trimmed. */
  async context(): Promise<SentinelHistoryTurn[]> {
    this.turns ??= await this.read();
    this.turns = trimTurns(this.turns, this.trimming);
    return this.turns;
  }

  /**
   * Appends a completed exchange and saves the trimmed history atomically and durably: after a
   * crash at any step the file holds the previous history or the new one, whole.
   */
  async append(user: SentinelHistoryTurn, assistant: SentinelHistoryTurn): Promise<void> {
    const turns = trimTurns([...(await this.context()), user, assistant], this.trimming);
    this.turns = turns;
    const file: SentinelHistoryFile = {
      turns,
      metadata: {
        trimStrategy: this.trimming.type,
        ...(this.trimming.type === 'maxTurns'
          ? { maxTurns: this.trimming.maxTurns }
          : { maxTokens: this.trimming.maxTokens }),
      },
    };
    if (!this.persist) return;
    await writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`, {
      fs: this.fs,
      createParents: true,
    });
  }

  private async read(): Promise<SentinelHistoryTurn[]> {
    if (!this.persist) return [];
    let text: string;
    try {
      text = await this.fs.readFile(this.path, 'utf8');
    } catch {
      return [];
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.discard('it is not JSON');
    }
    const current = sentinelHistoryFileSchema.safeParse(value);
    if (current.success) return current.data.turns;
    const legacy = legacySentinelHistorySchema.safeParse(value);
    if (legacy.success) {
      return legacy.data.flatMap(({ message, tokens }) =>
        ['user', 'assistant', 'system'].includes(message.role)
          ? [
              {
                role: message.role as SentinelHistoryTurn['role'],
                content: message.content,
                ...(tokens !== undefined ? { tokenCount: Math.round(tokens) } : {}),
              },
            ]
          : [],
      );
    }
    return this.discard('it matches neither the seed format nor the legacy array');
  }

  private async discard(reason: string): Promise<SentinelHistoryTurn[]> {
    const stamp = this.now();
    this.logger.warn(`Sentinel history ${this.path} is unreadable (${reason}); starting over`, {
      path: this.path,
      movedTo: `${this.path}.corrupt-${stamp}`,
    });
    // Best effort: if it cannot be moved, the next save replaces it, and the run goes on.
    await moveAsideAsCorrupt(this.path, { fs: this.fs, stamp }).catch(() => undefined);
    return [];
  }
}
