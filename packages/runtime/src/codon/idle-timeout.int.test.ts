import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeHarness } from '@hankweave/harness/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';
import { lettersHank } from '../testing/fake-world.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** The idle timeout the agent of each codon was started with, for a hank and runtime options. */
async function idleTimeouts(
  hankOverrides: { shimIdleTimeout?: number },
  codonSeconds: (number | undefined)[],
  idleTimeoutMs?: number,
): Promise<(number | undefined)[]> {
  const root = mkdtempSync(join(tmpdir(), 'idle-timeout-'));
  roots.push(root);
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'notes.txt'), 'hello');
  const hank = lettersHank(codonSeconds.length) as ReturnType<typeof lettersHank> & {
    overrides?: unknown;
  };
  hank.overrides = hankOverrides;
  codonSeconds.forEach((seconds, index) => {
    if (seconds !== undefined)
      (hank.hank[index] as Record<string, unknown>).shimIdleTimeout = seconds;
  });
  const harness = new FakeHarness({ script: { scenario: { turns: [{ text: 'Done.' }] } } });
  const runtime = createRuntime({
    hank,
    hankDir: root,
    dataPath: join(root, 'data'),
    executionBaseDir: join(root, 'executions'),
    harness,
    headless: true,
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
  });
  await runtime.start();
  expect((await runtime.finished).exitCode).toBe(0);
  return harness.starts.map((start) => start.idleTimeoutMs);
}

// Reference §1.10: defaults < hankweave.json < hank overrides < env < CLI; the codon's own value
// is the codon's, and wins over all.
describe('the agent idle timeout', () => {
  it("takes the codon's own value, then the runtime setting, then the hank's override", async () => {
    expect(await idleTimeouts({ shimIdleTimeout: 30 }, [undefined, 5])).toEqual([30_000, 5_000]);
    expect(await idleTimeouts({ shimIdleTimeout: 30 }, [undefined, 5], 60_000)).toEqual([
      60_000, 5_000,
    ]);
    expect(await idleTimeouts({}, [undefined])).toEqual([180_000]);
  });
});
