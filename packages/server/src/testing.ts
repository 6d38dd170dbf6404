// `@hankweave/server/testing`: the server over a runtime port with no runtime behind it, for
// tests of the server and of its clients (the dashboard's live view) that choose exactly what the
// runtime says, and when.
import { join } from 'node:path';
import { makeTempDirSync } from '@hankweave/durable-io/testing';
import {
  type AdapterLockFields,
  type CommandResult,
  executionLayout,
  type RuntimeCommand,
  type RuntimeExit,
  type RuntimePhase,
  type RuntimePort,
} from '@hankweave/runtime';
import { createEventId, type HankweaveEvent } from '@hankweave/types';

/** A {@link RuntimePort} with no runtime behind it: what the server asks and sends is recorded. */
export interface FakePort extends RuntimePort {
  phase: RuntimePhase;
  /** The journal `recentEvents` reads; `emit` appends to it. */
  readonly journal: HankweaveEvent[];
  /** Every command the server passed on, in order. */
  readonly commands: RuntimeCommand[];
  /** Every `updateLock` call. */
  readonly locks: AdapterLockFields[];
  /** Lines the server logged, as `LEVEL message`. */
  readonly logged: string[];
  /** Answers a command; default: `{type}` (a ping answers as the runtime does). */
  answer: (command: RuntimeCommand) => Promise<CommandResult>;
  /** Journals an event and publishes it to the listeners, as the runtime's bus does. */
  emit(type: string, data: Record<string, unknown>): HankweaveEvent;
  /** Resolves `finished`. */
  finish(exit: RuntimeExit): void;
}

/**
 * A fake port on `executionDir`, or on a fresh tmp execution directory (the server writes its
 * websocket.log there) that `cleanupTempDirs` of `@hankweave/durable-io/testing` removes.
 */
export function createFakePort(
  options: { autostart?: boolean; executionDir?: string } = {},
): FakePort {
  const layout = executionLayout(options.executionDir ?? makeTempDirSync('server-fake-port-').path);
  const listeners = new Set<(event: HankweaveEvent) => void>();
  let finish: (exit: RuntimeExit) => void = () => undefined;
  const finished = new Promise<RuntimeExit>((resolve) => {
    finish = resolve;
  });
  const logged: string[] = [];
  const line = (level: string) => (message: string) => logged.push(`${level} ${message}`);
  const port: FakePort = {
    phase: 'idle',
    journal: [],
    commands: [],
    locks: [],
    logged,
    finished,
    layout,
    dataPath: join(layout.executionDir, 'data'),
    outputDirectory: undefined,
    autostart: options.autostart ?? false,
    log: { debug: line('DEBUG'), info: line('INFO'), warn: line('WARN'), error: line('ERROR') },
    answer: async (command) =>
      command.type === 'ping'
        ? { type: 'ping', data: { message: 'pong', timestamp: new Date().toISOString() } }
        : { type: command.type },
    async command(command) {
      port.commands.push(command);
      return port.answer(command);
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async drainEvents() {},
    async recentEvents(limit) {
      const events = limit === 0 ? [] : port.journal.slice(-limit);
      return {
        events,
        totalEvents: port.journal.length,
        hasMore: port.journal.length > events.length,
      };
    },
    async updateLock(fields) {
      port.locks.push(fields);
    },
    emit(type, data) {
      const event = {
        id: createEventId(),
        type,
        timestamp: new Date().toISOString(),
        data,
      } as HankweaveEvent;
      port.journal.push(event);
      for (const listener of listeners) listener(event);
      return event;
    },
    finish: (exit) => finish(exit),
  };
  return port;
}
