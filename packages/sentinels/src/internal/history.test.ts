import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore, trimTurns } from './history.js';

const pair = (n: number, tokens = 10) => [
  { role: 'user' as const, content: `u${n}`, tokenCount: tokens },
  { role: 'assistant' as const, content: `a${n}`, tokenCount: tokens },
];
const silent = { info: () => {}, warn: () => {} };

describe('trimTurns()', () => {
  it('keeps the last maxTurns pairs', () => {
    const kept = trimTurns([...pair(1), ...pair(2), ...pair(3)], { type: 'maxTurns', maxTurns: 2 });
    expect(kept.map((t) => t.content)).toEqual(['u2', 'a2', 'u3', 'a3']);
  });
  it('drops the oldest pairs until the tokens fit maxTokens', () => {
    const turns = [...pair(1, 30), ...pair(2, 10), ...pair(3, 10)];
    expect(trimTurns(turns, { type: 'maxTokens', maxTokens: 45 }).map((t) => t.content)).toEqual([
      'u2',
      'a2',
      'u3',
      'a3',
    ]);
    expect(trimTurns(turns, { type: 'maxTokens', maxTokens: 5 })).toEqual([]);
  });
});

describe('HistoryStore', () => {
  it("reads the original runtime's array format", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sentinels-legacy-'));
    try {
      await mkdir(join(dir, 'sentinels', 'history'), { recursive: true });
      const store = new HistoryStore(
        dir,
        's',
        'c#0',
        { type: 'maxTurns', maxTurns: 5 },
        silent,
        Date.now,
      );
      await writeFile(
        store.path,
        JSON.stringify([
          { message: { role: 'user', content: 'hi' }, tokens: 2 },
          { message: { role: 'assistant', content: 'hello' } },
        ]),
      );
      expect(await store.context()).toEqual([
        { role: 'user', content: 'hi', tokenCount: 2 },
        { role: 'assistant', content: 'hello' },
      ]);
      await store.append({ role: 'user', content: 'again' }, { role: 'assistant', content: 'yes' });
      const saved = JSON.parse(await readFile(store.path, 'utf8'));
      expect(saved.turns).toHaveLength(4);
      expect(saved.metadata).toEqual({ trimStrategy: 'maxTurns', maxTurns: 5 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
