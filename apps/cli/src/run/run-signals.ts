import type { Runtime } from '@hankweave/runtime';
import type { RunView } from '../output/run-view.js';

type StopSignal = 'SIGINT' | 'SIGTERM';

/** The SIGINT/SIGTERM handling of one run, from before its start until {@link RunSignals.dispose}. */
export interface RunSignals {
  /**
   * Marks the runtime as started and returns the signal that came during its start, if one did:
   * the caller then closes the runtime with it as the reason.
   */
  started(): StopSignal | undefined;
  /** The same as a SIGINT (Ctrl-C on the idle controls, whose raw mode swallows the signal). */
  interrupt(): void;
  /** Removes the process listeners. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM during a run (the README's "Ctrl-C and stopping"). The first one
 * stops the run gracefully: the runtime closes with the signal as its reason once the agent has
 * exited, so the summary says "interrupted" and the exit code stays 0. A second one forces the
 * shutdown (exit 1); during the start, it exits the process at once with 1.
 */
export function handleRunSignals(
  runtime: Pick<Runtime, 'close'>,
  view: Pick<RunView, 'log'>,
): RunSignals {
  let started = false;
  let pending: StopSignal | undefined;
  let signals = 0;
  const onSignal = (signal: StopSignal) => {
    signals++;
    if (!started) {
      if (signals > 1) process.exit(1);
      pending = signal;
      return;
    }
    if (signals === 1) {
      view.log(
        'warn',
        `${signal}: stopping once the agent has exited (${signal === 'SIGINT' ? 'Ctrl-C' : 'signal'} again to force)`,
      );
      void runtime.close({ reason: signal });
    } else {
      view.log('warn', 'Forcing shutdown');
      void runtime.close({ force: true });
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    started: () => {
      started = true;
      return pending;
    },
    interrupt: () => onSignal('SIGINT'),
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
