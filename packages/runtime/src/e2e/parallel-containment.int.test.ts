import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { answers, codon } from '../../test/hank-builders.js';
import { makeWorld, runtimeFor } from '../../test/harness-env.js';

// What a branch of a parallel block can reach (issue 36): in the OS sandbox, a branch's agent
// writes its own work tree only, never agentRoot or a sibling's tree; and the runtime never opens
// a branch's work tree through a link that an agent planted (without the sandbox, the runtime's
// own file operations are the last line).

const hankOf = (hank: unknown[]) => ({
  meta: { name: 'parallel-containment', version: '1.0.0' },
  hank,
});
const block = {
  type: 'parallel',
  id: 'work',
  name: 'Work',
  branches: [
    { id: 'left', items: [codon('reach')] },
    { id: 'right', items: [codon('stay')] },
  ],
};

describe('containment of parallel branches', () => {
  it('a branch agent cannot write agentRoot nor a sibling branch, by relative or absolute path', async () => {
    const world = await makeWorld({
      hank: hankOf([codon('plan'), block]),
      script: {
        conversations: [
          answers('plan', [{ write: { path: 'plan.txt', content: 'plan\n' } }]),
          answers('reach', [
            {
              bash: 'echo evil > ../../../agentRoot/evil.txt; echo evil > ../../work.right/agentRoot/evil.txt; echo evil > "$PWD/../../../agentRoot/abs.txt"; echo mine > mine.txt; true',
            },
          ]),
          answers('stay', [{ write: { path: 'right.txt', content: 'right\n' } }]),
        ],
      },
    });
    const { runtime } = runtimeFor(world);
    await runtime.start();
    const exit = await runtime.finished;
    await world.close();
    expect(runtime.containment?.sandbox).toBe('bubblewrap');
    expect(exit.exitCode).toBe(0);
    const agentRoot = join(runtime.executionDir, 'agentRoot');
    // The merge brought each branch's own files; nothing the left branch aimed elsewhere landed.
    expect(existsSync(join(agentRoot, 'mine.txt'))).toBe(true);
    expect(existsSync(join(agentRoot, 'right.txt'))).toBe(true);
    expect(existsSync(join(agentRoot, 'evil.txt'))).toBe(false);
    expect(existsSync(join(agentRoot, 'abs.txt'))).toBe(false);
    const right = join(runtime.executionDir, 'branches', 'work.right', 'agentRoot');
    expect(existsSync(join(right, 'evil.txt'))).toBe(false);
  }, 120_000);

  it('never opens a work tree through a planted link (no sandbox): the run stops, nothing is written outside', async () => {
    const world = await makeWorld({
      hank: hankOf([
        codon('plan', {
          rigSetup: [{ type: 'command', command: { run: 'ln -s "$OUTSIDE" ../branches' } }],
        }),
        block,
      ]),
      script: {
        conversations: [
          answers('plan', [{ write: { path: 'plan.txt', content: 'plan\n' } }]),
          answers('reach', [{ write: { path: 'mine.txt', content: 'x\n' } }]),
          answers('stay', [{ write: { path: 'right.txt', content: 'x\n' } }]),
        ],
      },
    });
    const outside = join(world.root, 'outside');
    mkdirSync(outside);
    const events: HankweaveEvent[] = [];
    const { runtime } = runtimeFor(world, {
      sandbox: 'off',
      env: { ...world.env, OUTSIDE: outside },
    });
    runtime.on((event) => events.push(event));
    await runtime.start();
    const exit = await runtime.finished;
    await world.close();
    expect(exit.exitCode).not.toBe(0);
    expect(readdirSync(outside)).toEqual([]);
    expect(
      events.some(
        (event) =>
          event.type === 'error' &&
          event.data.code === 'RUNTIME_UNSAFE_PATH' &&
          /branches is a symbolic link/.test(String(event.data.message)),
      ),
    ).toBe(true);
  }, 120_000);
});
