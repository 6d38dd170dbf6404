import { fileURLToPath } from 'node:url';
import { readState } from '@hankweave/state';
import type { HankweaveState } from '@hankweave/types';

/**
 * State fixtures of real executions: `retried`, `failed` and `rolled-back` were written by
 * hankweave on the scripted model (hello-hank); `original-runtime` is the state package's file
 * written by the original runtime (reference/compatibility.md).
 */
export type StateFixture = 'retried' | 'failed' | 'rolled-back' | 'original-runtime';

/** The `.hankweave` directory of a fixture (read only: never change fixtures in place). */
export function fixtureHankweaveDir(name: StateFixture): string {
  const url =
    name === 'original-runtime'
      ? new URL(
          '../../../../packages/state/test/fixtures/original-runtime/.hankweave',
          import.meta.url,
        )
      : new URL(`./fixtures/${name}/.hankweave`, import.meta.url);
  return fileURLToPath(url);
}

/** A fixture's state, read through the state package as the server reads it. */
export async function fixtureState(name: StateFixture): Promise<HankweaveState> {
  const { state, source } = await readState(fixtureHankweaveDir(name));
  if (source !== 'primary') throw new Error(`fixture ${name}: state read from ${source}`);
  return state;
}
