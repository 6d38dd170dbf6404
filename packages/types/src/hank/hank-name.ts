import { basename, dirname } from 'node:path';
import { DEFAULT_HANK_META } from './hank-config.js';

// The name a hank without `meta` gets, as the original runtime gives it. It sits beside the
// schema's DEFAULT_HANK_META because readers that never validate (the dashboard's catalog of
// executions) name hanks the same way validateHank does.

/**
 * The name of a hank without `meta`: its file name without `.json`, unless the file is
 * `hank.json`, in which case its folder's name; `"hank"` when neither says anything.
 */
export function hankNameFromPath(hankPath?: string, hankDir?: string): string {
  if (hankPath !== undefined) {
    const file = basename(hankPath);
    const name = file.replace(/\.json$/i, '');
    if (file.toLowerCase() !== 'hank.json' && name !== '') return name;
  }
  const dir = hankDir ?? (hankPath !== undefined ? dirname(hankPath) : undefined);
  const folder = dir !== undefined ? basename(dir) : '';
  return folder !== '' && folder !== '.' && folder !== '..' ? folder : DEFAULT_HANK_META.name;
}
