import type { Pool, PoolClient } from 'pg';

// SQLSTATEs after which the whole transaction can simply run again: a deadlock between two
// writers that locked rows in opposite orders, or a serialization failure.
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 4;

/** The SQLSTATE of a `pg` error (`23505`, ...), or undefined for anything else. */
export const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};

/**
 * Runs `work` in one transaction on a client of `pool`: COMMIT when it resolves, ROLLBACK when it
 * throws. Deadlocks and serialization failures are retried (the work must be safe to repeat).
 * A client whose connection broke is destroyed instead of going back to the pool.
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      if (attempt < ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
