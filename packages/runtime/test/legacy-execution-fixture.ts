import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFixture } from '@hankweave/durable-io/testing';

/** The mtime every file and folder of the fixture's data had when its version-1 hash was taken. */
const LEGACY_MTIME = new Date('2025-03-01T12:00:00.250Z');
const EXECUTION_NAME = '1740830400000-ab12-e99ace';

/** A copy of test/fixtures/legacy-execution, as the original runtime left it. */
export interface LegacyExecution {
  data: string;
  baseDir: string;
  executionDir: string;
  /** The version-1 hash recorded in its execution-meta.json. */
  recordedHash: string;
}

/**
 * Copies the legacy fixture to a temp dir, gives its data the recorded mtimes (git keeps none),
 * points the meta at the copied data and links the data as the original runtime did.
 */
export async function useLegacyExecution(): Promise<LegacyExecution> {
  const fixture = await useFixture(new URL('./fixtures/', import.meta.url), 'legacy-execution');
  const data = join(fixture.path, 'data');
  for (const path of [
    'cities.csv',
    'readme.txt',
    'notes/a.md',
    'notes/deep/b.md',
    'notes/deep',
    'notes',
  ]) {
    utimesSync(join(data, path), LEGACY_MTIME, LEGACY_MTIME);
  }
  const baseDir = join(fixture.path, 'executions');
  const executionDir = join(baseDir, EXECUTION_NAME);
  const metaFile = join(executionDir, '.hankweave', 'execution-meta.json');
  const text = readFileSync(metaFile, 'utf8').replaceAll('__DATA__', data);
  writeFileSync(metaFile, text);
  mkdirSync(join(executionDir, 'agentRoot'), { recursive: true });
  symlinkSync(data, join(executionDir, 'agentRoot', 'read_only_data_source'), 'dir');
  return { data, baseDir, executionDir, recordedHash: JSON.parse(text).dataHash };
}
