export type { Durability } from './backends/file/append-queue.js';
export { FileEventStorage } from './backends/file/file-event-storage.js';
export { type FileEventStorageOptions, journalPathOf } from './backends/file/file-options.js';
export { GzipEventStorage } from './backends/gzip/gzip-event-storage.js';
export {
  MemoryEventStorage,
  type MemoryEventStorageOptions,
} from './backends/memory/memory-event-storage.js';
export {
  createFileJournal,
  createMemoryJournal,
  openJournalReadOnly,
  type ReadOnlyJournalOptions,
} from './create-journal.js';
export {
  JOURNAL_ERROR_CODES,
  JournalError,
  type JournalErrorCode,
} from './errors.js';
export { EventJournal } from './event-journal.js';
export { deterministicEventId } from './internal/parse-line.js';
export type {
  EventPage,
  EventStorage,
  JournalBackend,
  JournalCapabilities,
  JournalStats,
  JournalWarning,
  JournalWarningHandler,
  RecentEvents,
} from './journal-backend.js';
export {
  WebSocketLogReader,
  type WebSocketLogStatistics,
} from './websocket-log/websocket-log-reader.js';
export {
  createWebSocketLogWriter,
  type WebSocketLogWriter,
  type WebSocketLogWriterOptions,
  websocketLogPathOf,
} from './websocket-log/websocket-log-writer.js';
