import type { TestProject } from 'vitest/node';
import { startRedis } from '../src/testing.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's Redis server; each test uses its own queue name on it. */
    redisUrl: string;
  }
}

// One throwaway redis-server for the whole run (no persistence: see startRedis).
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startRedis();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
