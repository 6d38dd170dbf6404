import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing } from '@hankweave/durable-io';
import { DEBRIS_MANIFEST, type DebrisManifest, executionLayout } from './layout.js';

/**
 * Every rollback's debris of an execution (`.hankweave/debris/{name}/manifest.json`), oldest
 * first. A directory without a readable manifest (a rollback killed while moving) is reported
 * with the files found under it, so nothing moved aside goes unmentioned.
 */
export async function readDebrisManifests(executionDir: string): Promise<DebrisManifest[]> {
  const { debrisDir } = executionLayout(executionDir);
  let names: string[];
  try {
    names = (await readdir(debrisDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const manifests = await Promise.all(
    names.map(async (name) => {
      const directory = join('.hankweave', 'debris', name);
      try {
        const parsed = JSON.parse(
          await readFile(join(debrisDir, name, DEBRIS_MANIFEST), 'utf8'),
        ) as DebrisManifest;
        if (parsed.version === 1 && Array.isArray(parsed.files)) return { ...parsed, directory };
      } catch {
        // Unreadable or absent: listed from the disk below.
      }
      return {
        version: 1 as const,
        runId: name,
        checkpoint: '',
        movedAt: '',
        directory,
        files: await filesUnder(join(debrisDir, name, 'agentRoot')),
        removedDirectories: [],
        failed: [],
      };
    }),
  );
  return manifests.sort((a, b) => a.movedAt.localeCompare(b.movedAt));
}

async function filesUnder(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => !entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
      .sort();
  } catch {
    return [];
  }
}
