import { describe } from 'vitest';
import { backgroundProcessCases } from './cases/background-process.js';
import { beforeCopyCases } from './cases/before-copy-commands.js';
import { copyModeOriginalCases } from './cases/copy-mode-original.js';
import { executionFilesCases } from './cases/execution-files.js';
import { promptFifoCases } from './cases/prompt-fifo.js';
import { removeRealPathCases } from './cases/remove-real-path.js';
import { rigCopySymlinkCases } from './cases/rig-copy-symlink.js';
import { rollbackSymlinkCases } from './cases/rollback-symlink.js';
import { symlinkToDataCases } from './cases/symlink-to-data.js';
import { writeRealPathCases } from './cases/write-real-path.js';
import type { ContainmentContext, ContainmentHarness } from './containment-setup.js';

const DEFAULT_CASE_TIMEOUT_MS = 120_000;

/**
 * The adversarial suite of issue 31 for one agent: every attack a hank's agent or commands made on
 * the user's data and the machine, each in its own fresh world, run on the real agent through the
 * runtime. After each, the protected trees (the data at its real path, a directory outside the
 * execution, another execution, the hank directory) are byte-identical to before, and no process
 * the attack started is alive. One case file per attack (`cases/`); add one there, and to the list
 * below. Cases run one after the other (each starts real agents). Call it at the top level of a
 * test file; it uses vitest's explicit imports.
 */
export function describeContainment(harness: ContainmentHarness): void {
  const context: ContainmentContext = {
    harness,
    caseTimeoutMs: harness.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
  };
  describe(`containment: ${harness.name} (sandbox ${harness.sandbox ?? 'require'})`, () => {
    writeRealPathCases(context);
    removeRealPathCases(context);
    symlinkToDataCases(context);
    copyModeOriginalCases(context);
    beforeCopyCases(context);
    backgroundProcessCases(context);
    rigCopySymlinkCases(context);
    rollbackSymlinkCases(context);
    promptFifoCases(context);
    executionFilesCases(context);
  });
}
