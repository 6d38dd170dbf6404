// A runtime on the FakeHarness in a temp dir, started and collecting its events: the world of the
// runtime's lifecycle tests and of @hankweave/server's tests, which drive it over a socket.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeAgentScript, FakeHarness } from '@hankweave/harness/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { createRuntime, type Runtime } from '../runtime/create-runtime.js';

/** A hank of `codons` fresh codons named a, b, c, ... */
export function lettersHank(codons: number) {
  return {
    meta: { name: 'ws-test', version: '1.0.0' },
    hank: Array.from({ length: codons }, (_, index) => {
      const id = String.fromCharCode(97 + index);
      return {
        id,
        name: `Codon ${id}`,
        model: 'sonnet',
        continuationMode: 'fresh',
        promptText: `Do step ${id}.`,
      };
    }),
  };
}

/** A started runtime (FakeHarness, no autostart) in a tmp dir, and its collected events. */
export interface FakeWorld {
  root: string;
  runtime: Runtime;
  events: HankweaveEvent[];
  harness: FakeHarness;
  /** Shuts the runtime down and removes the tmp dir. */
  dispose(): Promise<void>;
}

/** Creates and starts a runtime on {@link lettersHank} with a FakeHarness. */
export async function startFakeWorld(
  options: {
    codons?: number;
    script?: FakeAgentScript | ((codonId: string, startIndex: number) => FakeAgentScript);
    lineDelayMs?: number;
    autostart?: boolean;
  } = {},
): Promise<FakeWorld> {
  const root = mkdtempSync(join(tmpdir(), 'ws-server-'));
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'notes.txt'), 'hello');
  const script = options.script;
  const harness = new FakeHarness({
    script:
      typeof script === 'function'
        ? (start, index) => script(start.codonId, index)
        : (script ?? { scenario: { turns: [{ text: 'Done.' }] } }),
    lineDelayMs: options.lineDelayMs ?? 0,
  });
  const runtime = createRuntime({
    hank: lettersHank(options.codons ?? 3),
    hankDir: root,
    dataPath: join(root, 'data'),
    executionBaseDir: join(root, 'executions'),
    harness,
    autostart: options.autostart ?? false,
    killGraceMs: 200,
  });
  const events: HankweaveEvent[] = [];
  runtime.on((event) => events.push(event));
  await runtime.start();
  return {
    root,
    runtime,
    events,
    harness,
    async dispose() {
      await runtime.close().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
