import { createInterface, emitKeypressEvents } from 'node:readline';
import { sleep } from '@hankweave/durable-io';
import type { Runtime, RuntimeCommand } from '@hankweave/runtime';
import { HankweaveError } from '@hankweave/types';
import type { RunView } from '../output/run-view.js';

export const IDLE_KEYS = 'Keys: [n] next codon · [r] roll back to the last success · [q] quit';

type Action = 'next' | 'rollback' | 'quit';
const ACTIONS: Record<string, Action> = {
  n: 'next',
  next: 'next',
  r: 'rollback',
  rollback: 'rollback',
  q: 'quit',
  quit: 'quit',
};

/**
 * `--no-autostart`: the run waits for commands. On a TTY single keys drive it; otherwise stdin
 * lines (`n`, `r`, `q`), each one acted on when the runtime is idle, so
 * `printf 'n\nn\nq\n' | hankweave … --no-autostart` runs two codons and quits. `q` is a graceful
 * shutdown on request; Ctrl-C in raw mode is the same as SIGINT. Returns the detach function.
 */
export function attachIdleControls(
  runtime: Runtime,
  view: RunView,
  interrupt: () => void,
): () => void {
  const stdin = process.stdin;
  let queue = Promise.resolve();
  const perform = async (action: Action) => {
    // A key acts at once; a stdin line waits for the previous one's codon, like a script would.
    if (!stdin.isTTY) await waitUntilIdle(runtime);
    if (action === 'quit') {
      void runtime.close();
      return;
    }
    await waitUntilIdle(runtime);
    const command: RuntimeCommand =
      action === 'next' ? { type: 'codon.next' } : { type: 'rollback.toLastSuccess', data: {} };
    try {
      await runtime.command(command);
    } catch (error) {
      view.log(
        'error',
        `${error instanceof Error ? error.message : String(error)}${HankweaveError.is(error) ? ` (${error.code})` : ''}`,
      );
    }
  };
  const enqueue = (action: Action | undefined) => {
    if (action) queue = queue.then(() => perform(action));
  };
  if (stdin.isTTY) {
    emitKeypressEvents(stdin);
    stdin.setRawMode(true);
    const onKey = (
      text: string | undefined,
      key: { name?: string; ctrl?: boolean } | undefined,
    ) => {
      if (key?.ctrl && key.name === 'c') return interrupt();
      enqueue(ACTIONS[(text ?? key?.name ?? '').toLowerCase()]);
    };
    stdin.on('keypress', onKey);
    stdin.resume();
    return () => {
      stdin.off('keypress', onKey);
      stdin.setRawMode(false);
      stdin.pause();
    };
  }
  const lines = createInterface({ input: stdin });
  lines.on('line', (line) => enqueue(ACTIONS[line.trim().toLowerCase()]));
  return () => lines.close();
}

async function waitUntilIdle(runtime: Runtime): Promise<void> {
  while (runtime.phase === 'driving' || runtime.phase === 'rolling-back') await sleep(50);
}
