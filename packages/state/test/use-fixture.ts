import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Copies `test/fixtures/<name>` to a new tmp dir (fixtures are never changed in place). */
export const useFixture = async (name: string): Promise<string> => {
  const target = await mkdtemp(join(tmpdir(), `state-fixture-${name}-`));
  await cp(join(import.meta.dirname, 'fixtures', name), target, { recursive: true });
  return target;
};
