import type { Pool } from 'pg';
import { PostgresError } from '../errors.js';
import { inTransaction } from './transaction.js';

/** The parts of the schema, each with its own version row in `hankweave_schema`. */
export type SchemaComponent = 'journal' | 'files' | 'mirror';

/** The schema version of each component this package writes. */
export const SCHEMA_VERSIONS: Readonly<Record<SchemaComponent, number>> = {
  journal: 1,
  files: 1,
  mirror: 1,
};

// One constant key: every process that creates tables takes the same transaction-level advisory
// lock, because concurrent `CREATE TABLE IF NOT EXISTS` of one name can still fail on pg_type's
// unique index.
const SCHEMA_LOCK_KEY = 0x68776d73; // 'hwms'

const ensured = new WeakMap<Pool, Map<SchemaComponent, Promise<void>>>();

/**
 * Creates the tables of `component` if they are missing and records its version; idempotent and
 * safe to run from many processes at once. Cached per pool, so each process pays it once.
 * @throws {PostgresError} POSTGRES_SCHEMA_TOO_NEW when the database holds a newer version.
 */
export function ensureSchema(
  pool: Pool,
  component: SchemaComponent,
  ddl: readonly string[],
): Promise<void> {
  let byComponent = ensured.get(pool);
  if (byComponent === undefined) {
    byComponent = new Map();
    ensured.set(pool, byComponent);
  }
  let done = byComponent.get(component);
  if (done === undefined) {
    done = createSchema(pool, component, ddl);
    byComponent.set(component, done);
    // A failure (server down, a newer schema) must not stick: the next call tries again.
    done.catch(() => byComponent.delete(component));
  }
  return done;
}

async function createSchema(
  pool: Pool,
  component: SchemaComponent,
  ddl: readonly string[],
): Promise<void> {
  const wanted = SCHEMA_VERSIONS[component];
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS hankweave_schema (
         component text PRIMARY KEY,
         version integer NOT NULL,
         updated_at timestamptz NOT NULL DEFAULT now())`,
    );
    const found = await client.query<{ version: number }>(
      'SELECT version FROM hankweave_schema WHERE component = $1',
      [component],
    );
    const version = found.rows[0]?.version;
    if (version !== undefined && version > wanted) {
      throw new PostgresError(
        'POSTGRES_SCHEMA_TOO_NEW',
        `The database holds version ${version} of the ${component} tables; this @hankweave/postgres writes version ${wanted}. Upgrade it.`,
        { details: { component, version, supported: wanted } },
      );
    }
    if (version === wanted) return;
    // Version 1 is the first: nothing to migrate from yet, only tables to create.
    for (const statement of ddl) await client.query(statement);
    await client.query(
      `INSERT INTO hankweave_schema (component, version) VALUES ($1, $2)
       ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version, updated_at = now()`,
      [component, wanted],
    );
  });
}
