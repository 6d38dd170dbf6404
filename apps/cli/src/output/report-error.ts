import { HankweaveError } from '@hankweave/types';
import { CliError } from './cli-error.js';
import type { Terminal } from './terminal.js';

/** What to do next, per error code, where the error's own message does not already say it. */
const HINTS: Record<string, string> = {
  RUNTIME_HANK_NOT_FOUND:
    'Pass the path of a hank.json or of the directory holding it; `hankweave init` scaffolds one.',
  RUNTIME_INVALID_HANK:
    'Fix the fields listed above; `hankweave validate <hank>` checks a hank without running it.',
  RUNTIME_PROMPT_UNREADABLE:
    'Check the promptFile paths in hank.json: they are relative to the hank directory.',
  RUNTIME_NO_CHECKPOINT: 'List what exists with `hankweave checkpoints -e <execution>`.',
  RUNTIME_UNKNOWN_CODON: 'See the codon ids with `hankweave status -e <execution>`.',
  RUNTIME_CODON_RUNNING: 'Wait for the codon to finish, or stop the run (Ctrl-C) first.',
  RUNTIME_ROLLBACK_IN_PROGRESS: 'Wait for the rollback to finish, then try again.',
  RUNTIME_NO_MORE_CODONS: 'Every codon of the plan has run; roll back to run codons again.',
  RUNTIME_INTERNAL:
    'This is a bug in hankweave; rerun with HANKWEAVE_DEBUG=1 and report the output.',
  STATE_LOCKED:
    'Another hankweave process is running this execution: wait for it or stop it (Ctrl-C in its terminal), or use --start-new for a separate execution.',
  STATE_LOCK_LOST:
    'Another hankweave process took over this execution; only one may run it at a time.',
  STATE_CORRUPT:
    'state.json and its backup are unreadable; inspect .hankweave/ or start over with --start-new.',
  CHECKPOINT_NOT_FOUND: 'List the checkpoints with `hankweave checkpoints -e <execution>`.',
  CHECKPOINT_AMBIGUOUS: 'Give more characters of the sha.',
  CHECKPOINT_LOCKED: 'Another process is writing the checkpoint repository; wait for it to finish.',
  CHECKPOINT_REPO_CORRUPT:
    'The shadow git repository is damaged; check it with `git --git-dir <execution>/.hankweave/checkpoints/.hankweavecheckpoints fsck`.',
  HARNESS_BINARY_NOT_FOUND:
    'Install Claude Code (`npm install -g @anthropic-ai/claude-code`) or set HANKWEAVE_CLAUDE_PATH to the `claude` executable.',
  HARNESS_ROOT_NOT_ALLOWED:
    'Run as a non-root user, or set IS_SANDBOX=1 inside a container you trust (a --scripted-model dry run sets it for you).',
  SCRIPTED_MODEL_INVALID_SCRIPT:
    'Fix the script; its JSON Schema is @hankweave/scripted-model/schemas/script.schema.json.',
  SCRIPTED_MODEL_SCRIPT_UNREADABLE:
    'Pass the path of a JSON model script, e.g. examples/hello-hank/model-script.json.',
  JOURNAL_OPEN_FAILED:
    'The event journal cannot be opened; check that .hankweave/events/ is readable.',
};

/** The hint for a coded error: "the fields listed above" only when fields were listed. */
function hintOf(error: HankweaveError, code: string): string | undefined {
  if (code === 'RUNTIME_INVALID_HANK') {
    const details = (error.details ?? {}) as { line?: unknown; errors?: unknown[] };
    if (typeof details.line === 'number') {
      return 'Fix the JSON syntax at that line and column (a trailing comma or a missing quote is the usual cause).';
    }
    if (!Array.isArray(details.errors) || details.errors.length === 0) {
      return '`hankweave validate <hank>` lists what is wrong with a hank without running it.';
    }
  }
  return HINTS[code];
}

/** True when HANKWEAVE_DEBUG asks for stack traces. */
export const debugEnabled = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.HANKWEAVE_DEBUG === '1' || env.HANKWEAVE_DEBUG === 'true';

/**
 * Prints what went wrong and what to do, never a stack trace unless HANKWEAVE_DEBUG=1.
 * Returns the exit code (1).
 */
export function reportError(terminal: Terminal, error: unknown): number {
  const { style } = terminal;
  const message = error instanceof Error ? error.message : String(error);
  const code = HankweaveError.is(error) ? error.code : undefined;
  terminal.err(`${style.red('Error:')} ${message}`);
  for (const line of detailLines(error)) terminal.err(`  ${line}`);
  // By brand and name, not `instanceof`: holds even when the error comes from another copy of
  // this module (a duplicate in a bundle).
  const hint = CliError.is(error)
    ? error.hint
    : code
      ? hintOf(error as HankweaveError, code)
      : 'Rerun with HANKWEAVE_DEBUG=1 to see where it failed, and report it if it looks like a bug.';
  if (hint) terminal.err(`${style.dim('→')} ${hint}`);
  if (debugEnabled()) {
    if (code) terminal.err(style.dim(`code: ${code}`));
    if (error instanceof Error && error.stack) terminal.err(style.dim(error.stack));
    const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
    if (cause instanceof Error && cause.stack) terminal.err(style.dim(`Caused by: ${cause.stack}`));
  }
  return 1;
}

/** Extra lines some codes carry in `details` (the candidates of an ambiguous sha, the lock holder). */
function detailLines(error: unknown): string[] {
  if (!HankweaveError.is(error)) return [];
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
