import type { History } from './history.js';
import type { Io } from './io.js';
import type { Layout } from './layout.js';
import type { ObjectStore } from './object-store.js';
import type { Refs } from './refs.js';
import type { FsClock } from './stat-cache.js';
import type { TrackedState } from './tracked-state.js';

/** Everything an operation needs, shared by the engine's operations. */
export interface EngineContext {
  io: Io;
  layout: Layout;
  store: ObjectStore;
  refs: Refs;
  history: History;
  clock: FsClock;
  state: TrackedState;
  maxFileSize: number;
  packThreshold: number;
  concurrency: number;
}
