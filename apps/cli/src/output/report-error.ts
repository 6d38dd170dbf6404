import { HankweaveError } from '@hankweave/types';
import { CliError, type CliErrorCode } from './cli-error.js';
import { hintForCode } from './error-hints.js';
import { describeFsError, type FsErrorDescription } from './fs-error-hint.js';
import type { Terminal } from './terminal.js';

/** True when HANKWEAVE_DEBUG asks for stack traces. */
export const debugEnabled = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.HANKWEAVE_DEBUG === '1' || env.HANKWEAVE_DEBUG === 'true';

/**
 * Errno codes the user's environment causes (permissions, a full disk, a failing mount): their
 * hint beats the hint of the hankweave error that wraps them, which names the operation only.
 */
const ENVIRONMENT_ERRNOS = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'EMFILE',
  'ENFILE',
  'EIO',
]);

/** What to do after a {@link CliError} that was thrown without a hint of its own. */
const CLI_FALLBACK_HINTS: Record<CliErrorCode, string> = {
  CLI_USAGE: 'Run the command with --help for its arguments and options.',
  CLI_NOT_FOUND: 'Check the path or name above and pass one that exists.',
  CLI_FAILED: 'Fix the cause named above, then run the same command again.',
};

/**
 * Codes whose errors carry their own hint in `details.hint`: `@hankweave/inspection`'s (the read
 * side the CLI shares with the dashboard) and the dashboard server's.
 */
const HINTED_CODE = /^(INSPECTION|DASHBOARD)_/;

/** What the error says: its message, or for a raw file-system error the same in words. */
interface Report {
  message: string;
  extra: string[];
  hint: string;
}

/** Decides the message, extra lines and the `→` hint of an error (every error gets a hint). */
export function describeError(error: unknown): Report {
  const message = error instanceof Error ? error.message : String(error);
  if (CliError.is(error)) {
    return { message, extra: [], hint: error.hint ?? CLI_FALLBACK_HINTS[error.code] };
  }
  // The packages the CLI shares with its dashboard say what to do next themselves.
  if (HankweaveError.is(error) && HINTED_CODE.test(error.code)) {
    const { hint } = error.details;
    if (typeof hint === 'string') return { message, extra: [], hint };
  }
  const fs: FsErrorDescription | undefined = describeFsError(error);
  if (HankweaveError.is(error)) {
    const extra = detailLines(error);
    if (fs && ENVIRONMENT_ERRNOS.has(fs.errno)) {
      return { message, extra: [...extra, fs.message], hint: fs.hint };
    }
    const hint =
      hintForCode(error) ??
      fs?.hint ??
      `Fix what the message names, then run the same command again (HANKWEAVE_DEBUG=1 shows where ${error.code} came from).`;
    return { message, extra: fs ? [...extra, fs.message] : extra, hint };
  }
  if (fs) return { message: fs.message, extra: [], hint: fs.hint };
  // Neither ours nor the system's: an error nobody anticipated, which is a bug.
  return {
    message,
    extra: [],
    hint: 'Rerun with HANKWEAVE_DEBUG=1 to see where it failed, and report it if it looks like a bug.',
  };
}

/**
 * Prints what went wrong and, on the last line, `→` what to do; a stack trace only with
 * HANKWEAVE_DEBUG=1 (before the `→` line, which stays last). Returns the exit code (1).
 */
export function reportError(terminal: Terminal, error: unknown): number {
  const { style } = terminal;
  const report = describeError(error);
  terminal.err(`${style.red('Error:')} ${report.message}`);
  for (const line of report.extra) terminal.err(`  ${line}`);
  if (debugEnabled()) {
    const code = HankweaveError.is(error) ? error.code : undefined;
    if (code) terminal.err(style.dim(`code: ${code}`));
    if (error instanceof Error && error.stack) terminal.err(style.dim(error.stack));
    const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
    if (cause instanceof Error && cause.stack) terminal.err(style.dim(`Caused by: ${cause.stack}`));
  }
  terminal.err(`${style.dim('→')} ${report.hint}`);
  return 1;
}

/** Extra lines some codes carry in `details` (the candidates of an ambiguous sha, the lock holder). */
function detailLines(error: HankweaveError): string[] {
  const details = error.details as Record<string, unknown>;
  if (error.code === 'CHECKPOINT_AMBIGUOUS' && Array.isArray(details.candidates)) {
    return (details.candidates as { sha: string; subject?: string }[]).map(
      (candidate) => `${candidate.sha.slice(0, 12)}  ${candidate.subject ?? ''}`,
    );
  }
  if (error.code === 'STATE_LOCKED' && details.pid !== undefined)
    return [
      `held by pid ${String(details.pid)}${details.runId ? `, run ${String(details.runId)}` : ''}`,
    ];
  return [];
}
