import type { BigIntStats } from 'node:fs';
import { lstatSync, statSync } from 'node:fs';
import { type Fs, nodeFs } from '@hankweave/durable-io';

/**
 * The real fs, except that lstat and stat of the chosen absolute paths keep returning the first
 * stats they saw: a change that the file system's coarse timestamps would hide, made
 * deterministic. (Not a fault: `createFaultyFs` fails calls, this one answers them stale.)
 */
export function frozenFs(frozen: (path: string) => boolean): Fs {
  const seen = new Map<string, BigIntStats>();
  const freeze = (key: string, path: string, read: () => BigIntStats) => {
    if (!frozen(path)) return read();
    const stats = seen.get(key) ?? read();
    seen.set(key, stats);
    return stats;
  };
  return {
    ...nodeFs,
    lstatSync: ((path: string) =>
      freeze(`l${path}`, path, () => lstatSync(path, { bigint: true }))) as Fs['lstatSync'],
    statSync: ((path: string) =>
      freeze(`s${path}`, path, () => statSync(path, { bigint: true }))) as Fs['statSync'],
  };
}
