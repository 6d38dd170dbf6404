import pg from 'pg';
import { CliError } from '../output/cli-error.js';
import { POSTGRES_URL_ENV } from './postgres-env.js';
import { checkServerUrl, maskedUrl } from './server-url.js';

/** Flags of the commands that can use a fleet's Postgres. */
export interface PostgresFlags {
  postgres?: string;
}

/** How long the first query may take before the database counts as unreachable. */
const CONNECT_TIMEOUT_MS = 3_000;

/** `--postgres`, else `$HANKWEAVE_POSTGRES_URL`, else undefined; a bad URL is a usage error. */
export function postgresUrlOf(
  flags: PostgresFlags,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const url = flags.postgres ?? env[POSTGRES_URL_ENV];
  if (url === undefined || url === '') return undefined;
  return checkServerUrl(
    '--postgres',
    url,
    ['postgres:', 'postgresql:'],
    'Write it as postgres://user:password@host:5432/database.',
  );
}

/**
 * A connection pool on the fleet's database, checked with one query: a database that does not
 * answer within 3 s, or refuses us, is an error naming the URL (password masked) and what to do.
 */
export async function openFleetDatabase(url: string, max = 4): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle connection the server drops is replaced by the next query; that query reports it.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      'CLI_FAILED',
      `Postgres at ${maskedUrl(url)} does not answer: ${reason}`,
      'Start it (Debian: `apt-get install postgresql`) or pass the URL of a running server and an existing database: --postgres postgres://user@host:5432/hankweave (the tables are made on first use).',
    );
  }
  return pool;
}
