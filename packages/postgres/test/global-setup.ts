import type { TestProject } from 'vitest/node';
import { startPostgres } from '../src/testing.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser URL of this run's server; each file creates its own database on it. */
    postgresUrl: string;
  }
}

// One server for the whole run (fsync off: see startPostgres); every test file makes its own
// database with createDatabase(), so files run in parallel without seeing each other.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
