import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFaultyFs, type FaultyFs, makeTempDir } from '@hankweave/durable-io/testing';
import { type CodonSentinelEntry, sentinelHistoryFileSchema } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { action, inline, setup } from '../test/helpers.js';
import { SentinelManager } from './index.js';

// Every output and history write goes through an injected fs; for each step k of one trigger's
// writes (log append, last-value replace, history save) the fs "dies" at step k. The files, read
// with the real fs, must then hold the previous content or the new one, whole; a log may end in
// part of the new record after every previous record, and the next writer cuts it off.

const NOW = 1_736_000_000_000;
const CODON = 'review#0';

type Kind = 'structured' | 'text';

// Turn n answers a request that carries n remembered exchanges.
const script = (kind: Kind) => ({
  conversations: [
    {
      match: { marker: 'REVIEW' },
      turns: [0, 1, 2].map((n) => ({
        content: [
          kind === 'structured' ? { object: { note: `turn ${n}` } } : { text: `turn ${n}` },
        ],
      })),
    },
  ],
});

function entry(kind: Kind): CodonSentinelEntry[] {
  const config = inline({
    id: 'rev',
    systemPromptText: 'REVIEW remember',
    userPromptText: 'event <%= it.events[0].data.content %>',
    conversational: { trimmingStrategy: { type: 'maxTurns', maxTurns: 5 } },
    ...(kind === 'structured'
      ? {
          structuredOutput: {
            output: 'object',
            schema: { type: 'object', properties: { note: { type: 'string' } } },
          },
        }
      : {}),
  });
  const lastValueFile = kind === 'structured' ? 'last.json' : 'last.txt';
  return [
    { sentinelConfig: config, settings: { outputPaths: { lastValueFile } } },
  ] as unknown as CodonSentinelEntry[];
}

interface Files {
  log: string;
  last: string | undefined;
  history: string | undefined;
}

const readOrUndefined = (path: string) => readFile(path, 'utf8').catch(() => undefined);

async function readFiles(hankweaveDir: string, kind: Kind): Promise<Files> {
  const outputs = join(hankweaveDir, 'sentinels', 'outputs', 'rev');
  const extension = kind === 'structured' ? '.ndjson' : '.md';
  const logs = (await readdir(outputs)).filter((name) => name.endsWith(extension));
  expect(logs).toEqual([`rev-${CODON}-${NOW}${extension}`]);
  return {
    log: await readFile(join(outputs, logs[0] as string), 'utf8'),
    last: await readOrUndefined(join(outputs, kind === 'structured' ? 'last.json' : 'last.txt')),
    history: await readOrUndefined(
      join(hankweaveDir, 'sentinels', 'history', `rev-codon-${CODON}.json`),
    ),
  };
}

/** Lines of a log that a tolerant reader takes: whole ones; a last line without `\n` is torn. */
function wholeLines(log: string): string[] {
  const lines = log.split('\n');
  lines.pop();
  return lines;
}

/** One trigger written, then the second one's writes with the fs dying at step `k` (if given). */
async function run(kind: Kind, k: number | undefined) {
  const dir = await makeTempDir('sentinels-crash-');
  const fs = createFaultyFs();
  const t = await setup(script(kind), { fs, clock: () => NOW }, { root: dir.path });
  try {
    const { failed } = await t.manager.loadForCodon({
      codonId: CODON,
      codonName: 'Review',
      entries: entry(kind),
    });
    expect(failed).toEqual([]);
    t.manager.observe(action('one', 1));
    await t.manager.drain();
    expect(fs.faulted).toBe(false);
    const before = await readFiles(t.hankweaveDir, kind);
    if (k !== undefined) fs.arm({ failAt: 'any', after: k, mode: 'crash' });
    t.manager.observe(action('two', 2));
    await t.manager.drain();
    const after = await readFiles(t.hankweaveDir, kind);
    const crashedAt = fs.trace.find((call) => call.failed)?.path;
    return { dir, t, fs, before, after, crashedAt };
  } catch (error) {
    await t[Symbol.asyncDispose]();
    await dir.cleanup();
    throw error;
  }
}

/** A new manager on the real fs over the same directories (same clock: same log file). */
async function recover(
  kind: Kind,
  t: Awaited<ReturnType<typeof setup>>,
  fs: FaultyFs,
): Promise<Files> {
  expect(fs.crashed || !fs.faulted).toBe(true);
  const manager = new SentinelManager({
    hankDir: t.hankDir,
    hankweaveDir: t.hankweaveDir,
    agentRoot: t.agentRoot,
    env: { ANTHROPIC_BASE_URL: t.model.url, ANTHROPIC_API_KEY: 'x' },
    emit: () => {},
    clock: () => NOW,
  });
  const { failed } = await manager.loadForCodon({
    codonId: CODON,
    codonName: 'Review',
    entries: entry(kind),
  });
  expect(failed).toEqual([]);
  manager.observe(action('three', 3));
  const [state] = await manager.drain();
  expect(state).toMatchObject({ llmCallCount: 1, failedLLMCalls: 0 });
  await manager.unload('shutdown');
  return readFiles(t.hankweaveDir, kind);
}

const parseLast = (kind: Kind, text: string | undefined) =>
  kind === 'structured' && text !== undefined ? JSON.parse(text) : text;
const parseHistory = (text: string | undefined) =>
  text === undefined ? undefined : sentinelHistoryFileSchema.parse(JSON.parse(text));

describe.each<Kind>(['structured', 'text'])('a crash at any write step (%s output)', (kind) => {
  it('leaves the previous or the new outputs and history, never a torn one', async () => {
    const reference = await run(kind, undefined);
    const complete = reference.after;
    await reference.t[Symbol.asyncDispose]();
    await reference.dir.cleanup();
    // The reference trigger really wrote something new everywhere.
    expect(complete.log.length).toBeGreaterThan(reference.before.log.length);
    expect(complete.last).not.toEqual(reference.before.last);
    expect(complete.history).not.toEqual(reference.before.history);

    const crashedIn = new Set<string>();
    let k = 0;
    for (; k < 200; k++) {
      const { dir, t, fs, before, after, crashedAt } = await run(kind, k);
      try {
        if (!fs.faulted) {
          // Step k is past the last write: the trigger completed untouched.
          expect(after).toEqual(complete);
          break;
        }
        if (crashedAt) crashedIn.add(crashedAt.slice(t.hankweaveDir.length));
        expect(before.log).toBe(reference.before.log);

        // The log: every previous byte, then at most the new record (possibly torn).
        expect(after.log.startsWith(before.log)).toBe(true);
        expect(complete.log.startsWith(after.log)).toBe(true);
        if (kind === 'structured') {
          for (const line of wholeLines(after.log)) expect(() => JSON.parse(line)).not.toThrow();
        }

        // The last-value file and the history: old or new, whole, parseable.
        expect([before.last, complete.last]).toContainEqual(after.last);
        expect(() => parseLast(kind, after.last)).not.toThrow();
        expect([before.history, complete.history]).toContainEqual(after.history);
        expect(parseHistory(after.history)).toBeDefined();

        // The next run repairs a torn log tail and goes on; nothing earlier is lost.
        const next = await recover(kind, t, fs);
        const remembered = after.history === complete.history ? 2 : 1;
        const answer = `turn ${remembered}`;
        expect(next.log.startsWith(before.log)).toBe(true);
        expect(next.log.endsWith(`${answer}\n`) || next.log.endsWith(`"${answer}"}}\n`)).toBe(true);
        if (kind === 'structured') {
          const records = next.log
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line));
          expect(records.at(-1)).toMatchObject({ triggerNumber: 1, output: { note: answer } });
          expect(records.length).toBeGreaterThanOrEqual(2);
          expect(records.length).toBeLessThanOrEqual(3);
        }
        expect(parseLast(kind, next.last)).toEqual(
          kind === 'structured' ? { note: answer } : answer,
        );
        expect(parseHistory(next.history)?.turns).toHaveLength(2 * (remembered + 1));
      } finally {
        await t[Symbol.asyncDispose]();
        await dir.cleanup();
      }
    }
    expect(k).toBeLessThan(200);
    // The crash points covered the log, the last-value file and the history file.
    const hit = [...crashedIn].join(' ');
    expect(hit).toContain(`rev-${CODON}-${NOW}`);
    expect(hit).toMatch(/last\.(json|txt)\./);
    expect(hit).toContain(`rev-codon-${CODON}.json.`);
  }, 120_000);
});
