// @hankweave/postgres/testing: throwaway PostgreSQL servers and databases for tests and benches
// (this package's, the queue's, the CLI's). No vitest import: usable from any runner.

export { createDatabase, dropDatabase } from './testing/create-database.js';
export { DEBIAN_POSTGRES_ROOT, findPostgresBinaries } from './testing/postgres-binaries.js';
export {
  type PostgresServer,
  type StartPostgresOptions,
  startPostgres,
} from './testing/start-postgres.js';
