import { errnoCode, type Fs, isMissing, nodeFs } from '@hankweave/durable-io';
import {
  emptyState,
  type HankweaveState,
  type StateValidation,
  type ValidationError,
} from '@hankweave/types';
import { stateError } from '../errors.js';
import { type CheckpointExists, type StateLogger, silentLogger } from '../options.js';
import { statePaths } from '../paths.js';
import { repairStructure, type StateRepair } from '../validation/repair-state.js';
import { notJsonError, validateStructure } from '../validation/structure.js';
import { stateWarnings } from '../validation/validate-state.js';

/** Which file the state came from. */
export type StateSource = 'primary' | 'backup' | 'fresh';

/** A state file that was tried and not used, and why. */
export interface RejectedStateFile {
  file: 'state.json' | 'state.json.bak';
  path: string;
  problem: 'missing' | 'unreadable' | 'not_json' | 'invalid';
  /** What was wrong with it, as validation errors (empty when missing). */
  errors: ValidationError[];
}

/** How the state was loaded (seed 000 "Recovery"). */
export interface RecoveryReport {
  source: StateSource;
  /** One sentence: which file was used and why. */
  reason: string;
  /** Files tried before the one used, in order. */
  rejected: RejectedStateFile[];
  /** A `state.json.tmp` exists: a save was interrupted. It is never read. */
  leftoverTemp: boolean;
  /**
   * The repairs made to the file used, when it was readable but structurally invalid (README
   * "Recovery"); empty when it was valid as read. Its history is kept; the original file is moved
   * aside (`<file>.corrupt-<time>`) when a store saves the repaired state.
   */
  repairs: StateRepair[];
  /** The file that was repaired and the validation errors it had before, when `repairs` is not empty. */
  repaired?: { file: RejectedStateFile['file']; path: string; errors: ValidationError[] };
}

/** The result of loading: the state, its validation and the recovery report. */
export interface LoadedState {
  state: HankweaveState;
  validation: StateValidation;
  recovery: RecoveryReport;
}

/** Options of {@link loadState}. */
export interface LoadStateOptions {
  fs?: Fs;
  logger?: StateLogger;
  checkpointExists?: CheckpointExists;
  /** When both files exist and neither is usable: start fresh (default) or throw STATE_CORRUPT. */
  onUnrecoverable?: 'fresh' | 'throw';
}

type Attempt =
  | { state: HankweaveState; repairs: StateRepair[]; errors: ValidationError[] }
  | { rejected: RejectedStateFile };

const tryFile = async (fs: Fs, path: string, file: RejectedStateFile['file']): Promise<Attempt> => {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { rejected: { file, path, problem: 'missing', errors: [] } };
    const message = `${file} cannot be read (${errnoCode(error) ?? String(error)}); check its permissions and the disk.`;
    return {
      rejected: {
        file,
        path,
        problem: 'unreadable',
        errors: [{ type: 'corrupted_data', message }],
      },
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { rejected: { file, path, problem: 'not_json', errors: [notJsonError(file, error)] } };
  }
  const { state, errors } = validateStructure(data);
  if (state !== undefined && errors.length === 0) return { state, repairs: [], errors };
  // Readable but structurally invalid: repaired and kept, unless it cannot be read as a state.
  const repaired = repairStructure(data);
  if (repaired.state === undefined) {
    return { rejected: { file, path, problem: 'invalid', errors } };
  }
  return {
    state: repaired.state,
    repairs: repaired.repairs.map((repair) => ({ file, ...repair })),
    errors,
  };
};

const exists = async (fs: Fs, path: string): Promise<boolean> => {
  try {
    await fs.stat(path);
    return true;
  } catch {
    return false;
  }
};

const describe = (rejected: RejectedStateFile): string =>
  rejected.problem === 'missing'
    ? `${rejected.file} is missing`
    : `${rejected.file} is ${rejected.problem === 'not_json' ? 'not valid JSON' : rejected.problem}`;

const SHOWN_REPAIRS = 5;

const explainRepairs = (repairs: StateRepair[]): string => {
  if (repairs.length === 0) return '';
  const shown = repairs
    .slice(0, SHOWN_REPAIRS)
    .map((repair) => `${repair.path || '(root)'}: ${repair.message}`);
  if (repairs.length > SHOWN_REPAIRS) shown.push(`...and ${repairs.length - SHOWN_REPAIRS} more`);
  return (
    ` It was structurally invalid and was repaired (${repairs.length} ` +
    `${repairs.length === 1 ? 'repair' : 'repairs'}: ${shown.join('; ')}); every run was kept, ` +
    `and the original is moved aside as ${repairs[0]?.file}.corrupt-<time> when the repaired ` +
    'state is saved.'
  );
};

const explain = (
  source: StateSource,
  rejected: RejectedStateFile[],
  leftoverTemp: boolean,
  repairs: StateRepair[],
): string => {
  let reason: string;
  if (source === 'primary') reason = `Loaded state.json.${explainRepairs(repairs)}`;
  else if (source === 'backup') {
    reason = `${describe(rejected[0] as RejectedStateFile)}; recovered from state.json.bak (the previous save).${explainRepairs(repairs)}`;
  } else if (rejected.every((file) => file.problem === 'missing')) {
    reason = 'No state file yet; starting with a fresh state.';
  } else {
    reason =
      `${rejected.map(describe).join(' and ')}; starting with a fresh state. The damaged files ` +
      'are kept beside it (state.json*.corrupt-<time>) at the first save.';
  }
  return leftoverTemp
    ? `${reason} A state.json.tmp was left by an interrupted save; it is ignored.`
    : reason;
};

/**
 * Loads `state.json` with seed 000's recovery chain: `state.json`, else `state.json.bak`, else a
 * fresh state (with a warning when files existed but were unusable). A file that is readable but
 * structurally invalid is repaired and used (`recovery.repairs`, README "Recovery") rather than
 * skipped, so its history is not lost. Never writes: a leftover
 * `state.json.tmp` is only reported. Read-only and safe while a server writes, because every save
 * replaces `state.json` by an atomic rename: a reader sees the old file or the new one, whole.
 *
 * @throws {StateError} STATE_CORRUPT when `onUnrecoverable: 'throw'` and no file is usable.
 */
export const loadState = async (
  hankweaveDir: string,
  options: LoadStateOptions = {},
): Promise<LoadedState> => {
  const fs = options.fs ?? nodeFs;
  const logger = options.logger ?? silentLogger;
  const paths = statePaths(hankweaveDir);
  const leftoverTemp = await exists(fs, paths.temp);
  const rejected: RejectedStateFile[] = [];
  let state: HankweaveState | undefined;
  let source: StateSource = 'fresh';
  let repairs: StateRepair[] = [];
  let repaired: RecoveryReport['repaired'];
  for (const [file, path, candidate] of [
    ['state.json', paths.primary, 'primary'],
    ['state.json.bak', paths.backup, 'backup'],
  ] as const) {
    const attempt = await tryFile(fs, path, file);
    if ('state' in attempt) {
      state = attempt.state;
      source = candidate;
      repairs = attempt.repairs;
      if (repairs.length > 0) repaired = { file, path, errors: attempt.errors };
      break;
    }
    rejected.push(attempt.rejected);
  }
  const unusable = rejected.filter((file) => file.problem !== 'missing');
  const reason = explain(source, rejected, leftoverTemp, repairs);
  if (state === undefined && unusable.length > 0 && options.onUnrecoverable === 'throw') {
    throw stateError('STATE_CORRUPT', reason, {
      hankweaveDir,
      rejected: rejected.map(({ file, problem }) => ({ file, problem })),
    });
  }
  // Starting fresh in an empty directory is normal; any other fallback deserves a warning.
  if (source === 'backup' || unusable.length > 0 || repairs.length > 0)
    logger.warn(reason, { hankweaveDir, source, repairs });
  else if (leftoverTemp) logger.info?.(reason, { hankweaveDir });

  const chosen = state ?? emptyState();
  const warnings = await stateWarnings(chosen, {
    fs,
    hankweaveDir,
    checkpointExists: options.checkpointExists,
  });
  return {
    state: chosen,
    validation: { valid: true, errors: [], warnings },
    recovery: {
      source,
      reason,
      rejected,
      leftoverTemp,
      repairs,
      ...(repaired === undefined ? {} : { repaired }),
    },
  };
};
