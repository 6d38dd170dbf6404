import pg from 'pg';
import { PostgresError } from '../errors.js';

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const checkName = (name: string): void => {
  if (!NAME.test(name)) {
    throw new PostgresError(
      'POSTGRES_BAD_ARGUMENT',
      `Database name ${JSON.stringify(name)} must be 1-63 lower-case letters, digits or _`,
      { details: { name } },
    );
  }
};

async function asAdmin(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database `name` on the server of `url` (dropping one of that name first) and
 * returns its URL: give each test file its own, so files can run in parallel.
 * @throws {PostgresError} POSTGRES_BAD_ARGUMENT for a name that is not a plain identifier.
 */
export async function createDatabase(url: string, name: string): Promise<string> {
  checkName(name);
  await asAdmin(url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * Drops database `name` on the server of `url`, disconnecting its clients. Missing is fine.
 * @throws {PostgresError} POSTGRES_BAD_ARGUMENT for a name that is not a plain identifier.
 */
export async function dropDatabase(url: string, name: string): Promise<void> {
  checkName(name);
  await asAdmin(url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}
