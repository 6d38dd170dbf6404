import { FilesError, TreeWatcher } from '@hankweave/files';
import type { FileWatchSettings } from '../codon/agent-root-watch.js';
import type { RuntimeLogger } from '../events/server-log.js';

/** One data root's watcher, and how many times its events said something changed. */
interface RootWatch {
  watcher: TreeWatcher | undefined;
  starting: Promise<void>;
  generation: number;
  /** Events of this root are not trusted any more (see {@link DataSourceWatches.generation}). */
  retired: boolean;
  /** The close of a retired watcher, awaited by {@link DataSourceWatches.close}. */
  closing?: Promise<void>;
}

/**
 * The file-system events of the data sources the codons' data guards check (issue 39): one
 * read-only watcher per data root, started the first time a guard's baseline shows the data is
 * big enough (`fileWatch.minFiles` entries) that a walk after every tool call costs more than a
 * look at the events, and closed with the execution.
 *
 * Nothing is ever written in the user's data: the watchers are read-only, and a settle relies on
 * inotify queueing a change's events in the system call that makes it (see `TreeWatcher`). The
 * guard settles before each check after a tool call, and still walks when the agent's session
 * ends: the walk is the verifier, events spare the walks in between. A watcher whose events may
 * have been lost (a burst past its limit, a failure, the root deleted or replaced) is retired:
 * every check of that root walks from then on.
 */
export class DataSourceWatches {
  readonly #settings: FileWatchSettings;
  readonly #log: RuntimeLogger;
  readonly #roots = new Map<string, RootWatch>();
  #closed = false;

  constructor(settings: FileWatchSettings, log: RuntimeLogger) {
    this.#settings = settings;
    this.#log = log;
  }

  /** Starts watching `root` (in the background) when the data there is big enough. */
  consider(root: string, entries: number): void {
    if (!this.#settings.enabled || this.#closed || this.#roots.has(root)) return;
    if (entries < this.#settings.minFiles) return;
    const watch: RootWatch = {
      watcher: undefined,
      starting: Promise.resolve(),
      generation: 0,
      retired: false,
    };
    watch.starting = this.#start(root, watch, entries);
    this.#roots.set(root, watch);
  }

  /**
   * A number that grows whenever the events of `root` say something in it changed; the same
   * number twice means no event arrived in between. Undefined while `root` is not watched (not
   * yet, not big enough, or retired): the caller walks.
   */
  generation(root: string): number | undefined {
    const watch = this.#roots.get(root);
    if (!watch?.watcher || watch.retired) return undefined;
    const { dirty, stale, reason } = watch.watcher.take();
    if (stale) {
      this.#retire(root, watch, reason ?? 'events may have been lost');
      return undefined;
    }
    if (dirty.length > 0) watch.generation++;
    return watch.generation;
  }

  /**
   * Resolves once the events of every change made in `root` before this call are counted in its
   * {@link generation} (a read-only watcher's settle: two turns of the event loop).
   */
  async settle(root: string): Promise<void> {
    const watch = this.#roots.get(root);
    if (watch?.watcher && !watch.retired) await watch.watcher.settle();
  }

  /** Resolves once every watcher being started runs (or has failed); for tests. */
  async started(): Promise<void> {
    await Promise.all([...this.#roots.values()].map((watch) => watch.starting));
  }

  /** Stops every watcher; awaits the starts in flight first. */
  async close(): Promise<void> {
    this.#closed = true;
    const watches = [...this.#roots.values()];
    await Promise.all(watches.map((watch) => watch.starting));
    await Promise.all(
      watches.map((watch) => {
        const watcher = watch.watcher;
        watch.watcher = undefined;
        return Promise.all([watch.closing, watcher?.close().catch(() => undefined)]);
      }),
    );
  }

  async #start(root: string, watch: RootWatch, entries: number): Promise<void> {
    let watcher: TreeWatcher;
    try {
      watcher = await TreeWatcher.start(root, { readOnly: true });
    } catch (error) {
      const why = FilesError.is(error) ? error.message : String(error);
      this.#log.warn(
        `The data source's file events are not available (${why}); its checks walk it`,
      );
      watch.retired = true;
      return;
    }
    if (this.#closed) {
      await watcher.close();
      return;
    }
    // The first take of a new watcher is stale by design: nothing was taken before it.
    watcher.take();
    watch.watcher = watcher;
    this.#log.info(
      `Watching the data source's file events: ${entries} entries, at least ${this.#settings.minFiles} (fileWatch.minFiles); the check after each tool call walks it only when they report a change`,
    );
  }

  #retire(root: string, watch: RootWatch, reason: string): void {
    watch.retired = true;
    const watcher = watch.watcher;
    watch.watcher = undefined;
    watch.closing = watcher?.close().catch(() => undefined);
    this.#log.warn(`Stopped watching the data source at ${root} (${reason}); its checks walk it`);
  }
}
