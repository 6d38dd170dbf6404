import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createDatabase, dropDatabase } from '../src/testing.js';

const ADMIN_SHUTDOWN = '57P01';

/**
 * A database of this test file's own (dropped after the file) and a pool on it: files run in
 * parallel on the one server of the run without seeing each other's tables.
 */
export async function useDatabase(name: string): Promise<{ url: string; pool: pg.Pool }> {
  const serverUrl = inject('postgresUrl');
  const url = await createDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // `pool.end()` resolves once the clients have sent their goodbye, not once their server
  // processes are gone: the `DROP DATABASE ... WITH (FORCE)` after it can still terminate one,
  // and that client, already ending, then emits the server's "terminating connection due to
  // administrator command" (57P01) with nobody listening (seen under load in CI). That one error
  // is the teardown's own; any other still fails the run.
  const teardownOnly = (error: Error & { code?: string }) => {
    if (error.code !== ADMIN_SHUTDOWN) throw error;
  };
  pool.on('connect', (client) => client.on('error', teardownOnly));
  // pg-pool re-emits an idle client's error on the pool itself, where no listener means an
  // uncaught exception (seen in CI: the same 57P01, through the pool's idle listener).
  pool.on('error', teardownOnly);
  afterAll(async () => {
    await pool.end();
    await dropDatabase(serverUrl, name);
  });
  return { url, pool };
}
