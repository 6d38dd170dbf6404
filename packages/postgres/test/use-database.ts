import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createDatabase, dropDatabase } from '../src/testing.js';

/**
 * A database of this test file's own (dropped after the file) and a pool on it: files run in
 * parallel on the one server of the run without seeing each other's tables.
 */
export async function useDatabase(name: string): Promise<{ url: string; pool: pg.Pool }> {
  const serverUrl = inject('postgresUrl');
  const url = await createDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(serverUrl, name);
  });
  return { url, pool };
}
