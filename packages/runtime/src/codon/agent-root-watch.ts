import { type ChangeScanner, FilesError, TreeWatcher } from '@hankweave/files';
import type { RuntimeLogger } from '../events/server-log.js';

/** When agentRoot's scans come from file-system events instead of a walk (`fileWatch.*`). */
export interface FileWatchSettings {
  /** Off: every scan walks agentRoot. Default on. */
  readonly enabled: boolean;
  /** Watch once a scan lists this many tracked files (0: from the first scan). Default 10,000. */
  readonly minFiles: number;
  /**
   * How long a scan waits for the file system to report its settle marker before it stops
   * trusting the events and walks (correct, only slower). Default 2000 ms; a machine loaded
   * enough to deliver events later than that walks after every tool call until it is raised.
   */
  readonly settleTimeoutMs: number;
}

export const DEFAULT_FILE_WATCH: FileWatchSettings = {
  enabled: true,
  minFiles: 10_000,
  settleTimeoutMs: 2000,
};

/**
 * The watcher of one execution's agentRoot, started once a scan shows the tree is big enough
 * that a walk after every tool call costs more than the watcher (a watch per directory and a
 * crawl at start, see @hankweave/files's README), and closed with the execution: nothing of it
 * outlives the run. Small trees keep the walk, which takes a few ms there.
 */
export class AgentRootWatch {
  readonly #root: string;
  readonly #settings: FileWatchSettings;
  readonly #log: RuntimeLogger;
  #watcher: TreeWatcher | undefined;
  #starting: Promise<void> | undefined;
  #closed = false;

  constructor(root: string, settings: FileWatchSettings, log: RuntimeLogger) {
    this.#root = root;
    this.#settings = settings;
    this.#log = log;
  }

  /** True once a watcher feeds the scanner. */
  get watching(): boolean {
    return this.#watcher !== undefined;
  }

  /**
   * Called after each scan with the number of tracked files: starts the watcher (its native crawl
   * runs off the event loop) the first time the tree is big enough, and hands it to `scanner`.
   * Never throws: without a watcher the scans walk, as before.
   */
  consider(scanner: ChangeScanner, trackedFiles: number): void {
    if (!this.#settings.enabled || this.#closed || this.#starting) return;
    if (trackedFiles < this.#settings.minFiles) return;
    this.#starting = this.#start(scanner, trackedFiles);
  }

  /** Resolves once a watcher being started is attached (or has failed); for tests and close. */
  async started(): Promise<void> {
    await this.#starting;
  }

  /** Stops watching; awaits a start in flight first. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#starting;
    const watcher = this.#watcher;
    this.#watcher = undefined;
    await watcher?.close();
  }

  async #start(scanner: ChangeScanner, trackedFiles: number): Promise<void> {
    let watcher: TreeWatcher;
    try {
      watcher = await TreeWatcher.start(this.#root, {
        settleTimeoutMs: this.#settings.settleTimeoutMs,
      });
    } catch (error) {
      const why = FilesError.is(error) ? error.message : String(error);
      this.#log.warn(`agentRoot's file events are not available (${why}); scans walk the tree`);
      return;
    }
    if (this.#closed) {
      await watcher.close();
      return;
    }
    this.#watcher = watcher;
    scanner.attachWatcher(watcher);
    this.#log.info(
      `Watching agentRoot's file events: ${trackedFiles} tracked files, at least ${this.#settings.minFiles} (fileWatch.minFiles)`,
    );
  }
}
