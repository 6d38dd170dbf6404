import { lstatSync, readdirSync, statSync } from 'node:fs';
import { vi } from 'vitest';
import { type FilesFs, type FilesStats, nodeFilesFs } from '../../src/files-fs.js';

/**
 * The real fs, except that lstat and stat of the chosen absolute paths keep returning the first
 * stats they saw: a change that the file system's coarse timestamps would hide, made
 * deterministic.
 */
export function frozenFs(frozen: (path: string) => boolean) {
  const seen = new Map<string, FilesStats>();
  const readdir = vi.fn((path: string) => readdirSync(path, { withFileTypes: true }));
  const freeze = (key: string, path: string, read: () => FilesStats) => {
    if (!frozen(path)) return read();
    const stats = seen.get(key) ?? read();
    seen.set(key, stats);
    return stats;
  };
  const fs: FilesFs = {
    ...nodeFilesFs,
    readdirSync: readdir,
    lstatSync: (path) => freeze(`l${path}`, path, () => lstatSync(path, { bigint: true })),
    statSync: (path) => freeze(`s${path}`, path, () => statSync(path, { bigint: true })),
  };
  return { fs, readdir };
}
