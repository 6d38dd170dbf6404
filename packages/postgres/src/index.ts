export { POSTGRES_ERROR_CODES, PostgresError, type PostgresErrorCode } from './errors.js';
export { createPgFs, PG_FS_METHODS, type PgFsOptions } from './fs/create-pg-fs.js';
export { PgEventStorage, type PgEventStorageOptions } from './journal/pg-event-storage.js';
export {
  type ExecutionSummary,
  type MirroredExecution,
  type MirrorListOptions,
  type MirrorMeta,
  PgStateMirror,
} from './mirror/pg-state-mirror.js';
