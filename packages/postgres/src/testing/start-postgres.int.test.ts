import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase } from './create-database.js';
import { startPostgres } from './start-postgres.js';

describe('startPostgres()', () => {
  it('serves on loopback from a temporary directory, and stop() removes it, twice safely', async () => {
    const server = await startPostgres({ settings: { application_name: 'start-test' } });
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const { rows } = await client.query(
      "SELECT current_setting('listen_addresses') AS listen, current_setting('fsync') AS fsync, current_setting('unix_socket_directories') AS socket",
    );
    await client.end();
    expect(rows[0]).toEqual({ listen: '127.0.0.1', fsync: 'off', socket: server.dir });
    expect(existsSync(`${server.dir}/data/PG_VERSION`)).toBe(true);
    await Promise.all([server.stop(), server.stop()]);
    await server.stop();
    expect(existsSync(server.dir)).toBe(false);
    const refused = new pg.Client({ connectionString: server.url });
    refused.on('error', () => undefined);
    await expect(refused.connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('stop() lets a connection whose goodbye is still unread end without an error', async () => {
    // pool.end() resolves once each client has sent Terminate, not once its backend read it: the
    // backends are paused here so that the stop comes first, every time.
    const server = await startPostgres();
    const errors: unknown[] = [];
    const clients = await Promise.all(
      [1, 2, 3].map(async () => {
        const client = new pg.Client({ connectionString: server.url });
        client.on('error', (error) => errors.push((error as { code?: string }).code));
        await client.connect();
        const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
        return { client, pid: rows[0].pid as number };
      }),
    );
    for (const { pid } of clients) process.kill(pid, 'SIGSTOP');
    const ended = Promise.all(clients.map(({ client }) => client.end()));
    const stopped = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const { pid } of clients) process.kill(pid, 'SIGCONT');
    await Promise.all([stopped, ended]);
    expect(errors).toEqual([]);
    expect(existsSync(server.dir)).toBe(false);
  });

  it('stop() still ends a server whose client stays connected', async () => {
    const server = await startPostgres();
    const client = new pg.Client({ connectionString: server.url });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push((error as { code?: string }).code));
    await client.connect();
    await server.stop();
    expect(existsSync(server.dir)).toBe(false);
    await client.end().catch(() => undefined);
    expect(errors[0]).toBe('57P01'); // administrator command: the fast shutdown after the drain
  });

  it('names the missing binary and what to install', async () => {
    const error = await startPostgres({ binDir: '/nonexistent/bin' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: 'POSTGRES_NOT_INSTALLED',
      details: { binary: '/nonexistent/bin/initdb' },
      message: expect.stringMatching(/\/nonexistent\/bin\/initdb.*apt-get install postgresql/s),
    });
  });
});

describe('createDatabase()', () => {
  it('creates an empty database, replacing one of the same name, and returns its URL', async () => {
    const serverUrl = inject('postgresUrl');
    const url = await createDatabase(serverUrl, 'create_db_test');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE leftover (x int)');
    await client.end();
    const again = await createDatabase(serverUrl, 'create_db_test');
    const fresh = new pg.Client({ connectionString: again });
    await fresh.connect();
    const { rows } = await fresh.query(
      "SELECT to_regclass('leftover') AS found, current_database() AS db",
    );
    await fresh.end();
    expect(rows[0]).toEqual({ found: null, db: 'create_db_test' });
    await dropDatabase(serverUrl, 'create_db_test');
  });

  it('refuses a name that is not a plain identifier with POSTGRES_BAD_ARGUMENT', async () => {
    await expect(createDatabase(inject('postgresUrl'), 'x"; DROP')).rejects.toMatchObject({
      code: 'POSTGRES_BAD_ARGUMENT',
    });
  });
});
