import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HankSource } from '@hankweave/types';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';

const LOCK_FILE = 'hank.lock';

/**
 * True when a positional names a `.hank` bundle (`.hank` or `.tar.zst`), by its suffix. The
 * bundle package (tar, zstd) is loaded only when a bundle or a pinned hank is run.
 */
export function isBundleArgument(argument: string): boolean {
  return argument.endsWith('.hank') || argument.endsWith('.tar.zst');
}

/** A verified, extracted bundle, as the run command takes a hank. */
export interface BundleHank {
  /** `<cache>/<bundleHash>/hank.json`. */
  hankPath: string;
  hankDir: string;
  hankSource: Extract<HankSource, { kind: 'bundle' }>;
  /** Said once before the run: where it was extracted, or that the cache was reused. */
  note: string;
}

/**
 * Opens a `.hank` bundle for a run: verified against its hank.lock, extracted once into the
 * bundle cache (`$HANKWEAVE_CACHE_DIR/bundles`, else `$XDG_CACHE_HOME/hankweave/bundles`, else
 * `~/.cache/hankweave/bundles`) by its hash and re-verified before reuse.
 *
 * @throws {CliError} CLI_NOT_FOUND when the file is missing; CLI_FAILED naming the file at fault
 *   when the bundle is tampered with, unsafe or not a bundle.
 */
export async function openBundleHank(argument: string): Promise<BundleHank> {
  const { BundleError, openBundle } = await import('@hankweave/bundle');
  try {
    const opened = await openBundle(argument);
    return {
      hankPath: opened.hankPath,
      hankDir: opened.hankDir,
      hankSource: { kind: 'bundle', path: argument, bundleHash: opened.bundleHash },
      note: `Bundle ${opened.lock.name} ${opened.lock.version} (${opened.bundleHash.slice(0, 12)}) verified; ${opened.extraction === 'reused' ? 'using' : 'extracted to'} ${opened.hankDir}`,
    };
  } catch (error) {
    if (!BundleError.is(error)) throw error;
    const file = typeof error.details.file === 'string' ? error.details.file : undefined;
    if (error.code === 'BUNDLE_IO' && file !== undefined && !file.startsWith('/'))
      throw new CliError(
        'CLI_FAILED',
        `Cannot open the bundle ${argument}: ${error.message}`,
        'Check that the cache directory is writable (HANKWEAVE_CACHE_DIR sets it).',
      );
    if (error.code === 'BUNDLE_IO')
      throw new CliError(
        'CLI_NOT_FOUND',
        `Cannot read the bundle ${argument}: ${error.message}`,
        'Pass the path of a .hank file made by `hankweave pack`.',
      );
    if (error.code === 'BUNDLE_RUNTIME_TOO_OLD')
      throw new CliError(
        'CLI_FAILED',
        `${argument}: ${error.message}`,
        'Update hankweave, or repack the hank with an older --min-runtime.',
      );
    throw new CliError(
      'CLI_FAILED',
      `Refusing the bundle ${argument}: ${error.message}`,
      `The bundle is not what its author packed${file ? ` (${file})` : ''}. Get a fresh copy from them, or repack it from the hank directory: ${commandHint('pack', '<hank dir>')}.`,
    );
  }
}

/**
 * A plain hank directory with a hank.lock beside its hank.json is pinned: its files must be the
 * locked ones. Refuses drift by name.
 *
 * @throws {CliError} CLI_FAILED naming the drifted file, or an invalid hank.lock.
 */
export async function checkPinnedHank(hankDir: string): Promise<void> {
  if (!existsSync(join(hankDir, LOCK_FILE))) return;
  const { BundleError, verifyPinnedHank } = await import('@hankweave/bundle');
  try {
    verifyPinnedHank(hankDir);
  } catch (error) {
    if (!BundleError.is(error)) throw error;
    if (error.code === 'BUNDLE_DRIFT')
      throw new CliError(
        'CLI_FAILED',
        `${hankDir} is pinned by its ${LOCK_FILE}, and ${error.message}`,
        `Restore the file, or accept the change by packing again (${commandHint('pack', shellArg(hankDir))}), which rewrites ${LOCK_FILE}; delete ${join(hankDir, LOCK_FILE)} to unpin.`,
      );
    throw new CliError(
      'CLI_FAILED',
      error.message,
      `Write it again with ${commandHint('pack', shellArg(hankDir))}, or delete ${join(hankDir, LOCK_FILE)} to unpin.`,
    );
  }
}
