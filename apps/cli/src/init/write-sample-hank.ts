import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { portableCommand } from '../output/command-hint.js';
import { sampleHankFiles } from './sample-hank.js';

/**
 * Writes the sample hank into `dir` (created when missing) and returns the files written,
 * relative to it. Its README names a CLI command that works from the hank's own directory.
 */
export function writeSampleHank(dir: string): string[] {
  const name = basename(dir).replace(/[^\w.-]+/g, '-') || 'my-hank';
  const files = sampleHankFiles(name, portableCommand());
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return Object.keys(files);
}
