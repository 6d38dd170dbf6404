import { type Fs, nodeFs } from '@hankweave/durable-io';
import { afterEach, beforeEach } from 'vitest';
import type { StateLogger } from '../options.js';
import { type StatePaths, statePaths } from '../paths.js';
import { type OpenStateStoreOptions, StateStore } from '../state-store.js';

/** What a backend may or may not do; the suite skips what a harness cannot support. */
export interface StateStoreCapabilities {
  /**
   * The suite may wrap the harness's fs with `createFaultyFs` (`@hankweave/durable-io/testing`)
   * to inject I/O errors and crashes.
   */
  faultInjection?: boolean;
  /** Paths are real files: the suite checks POSIX modes (runtime.lock is 0600). */
  posixModes?: boolean;
}

/** How the conformance suite gets storage for one test. */
export interface StateStoreHarness {
  /** Shown in test titles. */
  name: string;
  /** A new, empty `.hankweave` directory, isolated from every other test. */
  createDir(): Promise<string>;
  /** The file system the store runs on (default: durable-io's `nodeFs`, the real one). */
  fs?: Fs;
  /** Cleans a directory up after its test. */
  destroyDir?(dir: string): Promise<void>;
  capabilities?: StateStoreCapabilities;
}

/** A logger that remembers what it was told. */
export interface RecordingLogger extends StateLogger {
  warnings: string[];
}

/** The per-test context of a case file. */
export interface CaseContext {
  dir: string;
  paths: StatePaths;
  fs: Fs;
  logger: RecordingLogger;
  /** Opens a store on the harness fs (or `options.fs`), with a recording logger. */
  open(options?: OpenStateStoreOptions): Promise<StateStore>;
  /** Writes a file through the harness fs (to plant corrupt or foreign files). */
  write(path: string, text: string): Promise<void>;
  /** Reads a file through the harness fs; undefined when missing. */
  read(path: string): Promise<string | undefined>;
  /** Names in the directory. */
  list(): Promise<string[]>;
}

/** Registers beforeEach/afterEach that give each test a fresh directory; returns a getter. */
export const useCaseContext = (harness: StateStoreHarness): (() => CaseContext) => {
  let context: CaseContext | undefined;
  const stores: StateStore[] = [];
  beforeEach(async () => {
    const dir = await harness.createDir();
    const fs = harness.fs ?? nodeFs;
    const logger: RecordingLogger = {
      warnings: [],
      warn(message) {
        this.warnings.push(message);
      },
    };
    context = {
      dir,
      paths: statePaths(dir),
      fs,
      logger,
      open: async (options = {}) => {
        const store = await StateStore.open(dir, { fs, logger, ...options });
        stores.push(store);
        return store;
      },
      write: async (path, text) => {
        const handle = await fs.open(path, 'w');
        try {
          await handle.writeFile(text);
        } finally {
          await handle.close();
        }
      },
      read: async (path) => {
        try {
          return await fs.readFile(path, 'utf8');
        } catch {
          return undefined;
        }
      },
      list: async () =>
        (await fs.readdir(dir, { withFileTypes: true })).map((entry) => entry.name).sort(),
    };
  });
  afterEach(async () => {
    // Let background saves settle before the directory goes away.
    await Promise.allSettled(stores.splice(0).map((store) => store.flush()));
    if (context !== undefined) await harness.destroyDir?.(context.dir);
    context = undefined;
  });
  return () => {
    if (context === undefined) throw new Error('useCaseContext: no test is running');
    return context;
  };
};
