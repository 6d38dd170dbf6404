import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `test/fixtures`: seed-written files, never changed in place. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures', import.meta.url));

/** Copies `test/fixtures/{fixture}` to `{projectDir}/{target}` (creating directories). */
export async function placeFixture(
  projectDir: string,
  fixture: string,
  target: string,
): Promise<string> {
  const path = join(projectDir, target);
  await mkdir(join(path, '..'), { recursive: true });
  await cp(join(FIXTURES_DIR, fixture), path);
  return path;
}
