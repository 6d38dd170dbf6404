import type { ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueError } from './errors.js';

/** Where Redis is: a URL (`redis://host:6379/0`, `rediss://` for TLS) or BullMQ connection options. */
export type QueueConnection = string | ConnectionOptions;

/** The queue every command uses unless told otherwise. */
export const DEFAULT_QUEUE_NAME = 'hankweave';

/** The Redis key prefix of BullMQ (its default). */
export const DEFAULT_PREFIX = 'bull';

/** A URL becomes `{url}`, which BullMQ hands to ioredis; options pass through. */
export function connectionOptions(connection: QueueConnection): ConnectionOptions {
  return typeof connection === 'string' ? { url: connection } : connection;
}

/** The connection for messages: the URL without its password, or `host:port`. */
export function describeConnection(connection: QueueConnection): string {
  const options = connectionOptions(connection) as { url?: string; host?: string; port?: number };
  if (typeof options.url === 'string') {
    try {
      const url = new URL(options.url);
      if (url.password) url.password = '***';
      return url.toString();
    } catch {
      return options.url;
    }
  }
  if (options.host !== undefined || options.port !== undefined)
    return `${options.host ?? '127.0.0.1'}:${options.port ?? 6379}`;
  return 'the given Redis client';
}

/**
 * Checks that Redis answers PING within `timeoutMs`, once, without retrying: BullMQ's clients
 * retry forever, so a wrong URL would otherwise hang a command instead of failing it.
 * A connection given as a client instance is assumed to be reachable.
 * @throws {QueueError} QUEUE_REDIS_UNREACHABLE naming the URL.
 */
export async function checkRedis(
  connection: QueueConnection,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const resolved = connectionOptions(connection) as Record<string, unknown>;
  if (typeof resolved.duplicate === 'function') return;
  const { url, ...rest } = resolved as { url?: string } & Record<string, unknown>;
  const settings = {
    ...rest,
    lazyConnect: true,
    connectTimeout: options.timeoutMs ?? 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  };
  const client = typeof url === 'string' ? new Redis(url, settings) : new Redis(settings);
  let lastError: unknown;
  client.on('error', (error) => {
    lastError = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const cause = lastError ?? error;
    const where = describeConnection(connection);
    throw new QueueError(
      'QUEUE_REDIS_UNREACHABLE',
      `Redis at ${where} does not answer: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause, details: { url: where } },
    );
  } finally {
    client.disconnect();
  }
}
