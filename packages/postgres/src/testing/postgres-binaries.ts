import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PostgresError } from '../errors.js';

const run = promisify(execFile);

/** Where Debian's `postgresql` package puts the server binaries: one directory per version. */
export const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';

const INSTALL_HINT =
  "Install Debian's PostgreSQL server (`apt-get install postgresql`, version 15 on Debian 12), " +
  'or point HANKWEAVE_POSTGRES_BIN (or the binDir option) at a directory holding initdb and postgres.';

/**
 * The directory of `initdb` and `postgres`: `binDir`, else `$HANKWEAVE_POSTGRES_BIN`, else the
 * newest `/usr/lib/postgresql/<version>/bin`.
 * @throws {PostgresError} POSTGRES_NOT_INSTALLED naming the binary that is missing and how to
 *   install it.
 */
export function findPostgresBinaries(binDir?: string): { initdb: string; postgres: string } {
  const dir =
    binDir ??
    process.env.HANKWEAVE_POSTGRES_BIN ??
    newestDebianBinDir() ??
    join(DEBIAN_POSTGRES_ROOT, '15', 'bin');
  const initdb = join(dir, 'initdb');
  const postgres = join(dir, 'postgres');
  for (const binary of [initdb, postgres]) {
    if (!existsSync(binary)) {
      throw new PostgresError(
        'POSTGRES_NOT_INSTALLED',
        `${binary} does not exist. ${INSTALL_HINT}`,
        {
          details: { binary },
        },
      );
    }
  }
  return { initdb, postgres };
}

function newestDebianBinDir(): string | undefined {
  let versions: string[];
  try {
    versions = readdirSync(DEBIAN_POSTGRES_ROOT);
  } catch {
    return undefined;
  }
  return versions
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(DEBIAN_POSTGRES_ROOT, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')));
}

/** How to run the server's binaries: as ourselves, or (as root) as the `postgres` user. */
export interface ServerUser {
  /** The command and arguments that run `binary args` as the server's user. */
  command(binary: string, args: readonly string[]): { file: string; args: string[] };
  /** uid and gid that must own the data directory; undefined when it is ourselves. */
  owner?: { uid: number; gid: number };
}

/**
 * Postgres refuses to run as root; as root we run it as Debian's `postgres` user through
 * `runuser` (util-linux), on a directory that user owns.
 * @throws {PostgresError} POSTGRES_NOT_INSTALLED when running as root and there is no
 *   `postgres` user (the `postgresql` package creates it).
 */
export async function serverUser(): Promise<ServerUser> {
  if (process.getuid?.() !== 0) {
    return { command: (binary, args) => ({ file: binary, args: [...args] }) };
  }
  let uid: number;
  let gid: number;
  try {
    uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  } catch (error) {
    throw new PostgresError(
      'POSTGRES_NOT_INSTALLED',
      `Running as root, Postgres must run as the "postgres" user, which does not exist. ${INSTALL_HINT}`,
      { cause: error, details: { binary: 'runuser' } },
    );
  }
  return {
    command: (binary, args) => ({
      file: 'runuser',
      args: ['-u', 'postgres', '--', binary, ...args],
    }),
    owner: { uid, gid },
  };
}
