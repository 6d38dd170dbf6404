import type { HankweaveError } from '@hankweave/types';
import { commandHint } from './command-hint.js';

/** The one hint that asks for a bug report: only for a real internal error. */
export const BUG_HINT =
  'This is a bug in hankweave: rerun with HANKWEAVE_DEBUG=1 and report the output.';

/**
 * What to do next, per error code, where the error's own message does not already say it. A
 * function, not a table built at import, so the commands follow the launcher of this process.
 */
function hintTable(): Record<string, string> {
  const executionsDir =
    'pick another with --execution <dir> or HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR=<dir>';
  return {
    RUNTIME_HANK_NOT_FOUND: `Pass the path of a hank.json or of the directory holding it; \`${commandHint('init')}\` scaffolds one.`,
    RUNTIME_INVALID_HANK: `Fix the fields listed above; \`${commandHint('validate', '<hank>')}\` checks a hank without running it.`,
    RUNTIME_DATA_NOT_FOUND:
      'Pass an existing file or directory as the data (the second argument or --data).',
    RUNTIME_RESERVED_LOCATION: `That place is hankweave's own; ${executionsDir}.`,
    RUNTIME_EXECUTION_EXISTS: 'Resume it with --execution <dir>, or pass --start-new.',
    RUNTIME_EXECUTION_NOT_EMPTY:
      'Pass an empty or new directory to --execution, or an existing execution to resume it.',
    RUNTIME_DATA_MISMATCH:
      'Pass the data this execution was created with, or --start-new for a new execution.',
    RUNTIME_NESTED_EXECUTION: `An execution cannot live inside another; ${executionsDir}.`,
    RUNTIME_PROMPT_UNREADABLE:
      'Check the promptFile paths in hank.json: they are relative to the hank directory.',
    RUNTIME_NO_CHECKPOINT: `List what exists with \`${commandHint('checkpoints', '-e', '<execution>')}\`.`,
    RUNTIME_UNKNOWN_CODON: `See the codon ids with \`${commandHint('status', '-e', '<execution>')}\`.`,
    RUNTIME_CODON_RUNNING: 'Wait for the codon to finish, or stop the run (Ctrl-C) first.',
    RUNTIME_NO_CODON_RUNNING: 'Nothing to stop: no codon is running.',
    RUNTIME_ROLLBACK_IN_PROGRESS: 'Wait for the rollback to finish, then try again.',
    RUNTIME_NO_MORE_CODONS: 'Every codon of the plan has run; roll back to run codons again.',
    RUNTIME_SHUTTING_DOWN: 'The run is stopping; start it again to continue.',
    RUNTIME_INVALID_OPTION: 'Fix the option named above (`--help` lists the valid values).',
    SERVER_INVALID_OPTION: 'Fix the option named above (`--help` lists the valid values).',
    SERVER_LISTEN_FAILED:
      'Pick another port with --port <n> (0 picks a free one), or stop what holds that port.',
    RUNTIME_HARNESS_UNAVAILABLE:
      'Install the adapter the model needs beside hankweave (@hankweave/claude-code for Anthropic models, @hankweave/pi for the others), or pass --scripted-model <script> for an offline dry run.',
    RUNTIME_NO_CREDENTIALS:
      "Set the key the message names (ANTHROPIC_API_KEY or `claude login` for Anthropic models, the provider's key for the others), or pass --scripted-model <script> for an offline dry run.",
    RUNTIME_API_UNREACHABLE:
      'Check the network, the proxy and ANTHROPIC_BASE_URL, or pass --scripted-model <script> for an offline dry run.',
    RUNTIME_DATA_CHANGED:
      'Resume that execution with --execution <dir>, or pass --start-new to start fresh on the changed data.',
    RUNTIME_INTERNAL: BUG_HINT,
    STATE_LOCKED:
      'Another hankweave process is running this execution: wait for it or stop it (Ctrl-C in its terminal), or use --start-new for a separate execution.',
    STATE_LOCK_LOST:
      'Another hankweave process took over this execution; only one may run it at a time.',
    STATE_CORRUPT:
      'state.json and its backup are unreadable; inspect .hankweave/ or start over with --start-new.',
    CHECKPOINT_NOT_FOUND: `List the checkpoints with \`${commandHint('checkpoints', '-e', '<execution>')}\`.`,
    CHECKPOINT_AMBIGUOUS: 'Give more characters of the sha.',
    CHECKPOINT_LOCKED:
      'Another process is writing the checkpoint repository; wait for it to finish.',
    CHECKPOINT_REPO_CORRUPT:
      'The shadow git repository is damaged; check it with `git --git-dir <execution>/.hankweave/checkpoints/.hankweavecheckpoints fsck`.',
    HARNESS_BINARY_NOT_FOUND:
      'Install Claude Code (`npm install -g @anthropic-ai/claude-code`) or set HANKWEAVE_CLAUDE_PATH to the `claude` executable.',
    HARNESS_ROOT_NOT_ALLOWED:
      'Run as a non-root user, or set IS_SANDBOX=1 inside a container you trust (a --scripted-model dry run sets it for you).',
    HARNESS_LOG_NOT_FOUND:
      'Pass an execution whose runs/ folder still holds the agent logs (a replay reads them).',
    SCRIPTED_MODEL_INVALID_SCRIPT:
      'Fix the script; its JSON Schema is @hankweave/scripted-model/schemas/script.schema.json.',
    SCRIPTED_MODEL_SCRIPT_UNREADABLE: `Pass the path of a JSON model script (\`${commandHint('init', '<dir>')}\` writes a sample hank with one, model-script.json).`,
    SCRIPTED_MODEL_LISTEN_FAILED:
      'The dry run could not listen on loopback; check that 127.0.0.1 is available.',
    JOURNAL_OPEN_FAILED:
      'The event journal cannot be opened; check that .hankweave/events/ is readable.',
    SENTINEL_PROVIDER_KEY_MISSING:
      'Set the API key of the provider the sentinel names (see the message), or remove the sentinel.',
    SESSIONS_LOCK_TIMEOUT:
      'Another hankweave process holds the registry lock; try again in a moment.',
  };
}

/** The hint for a coded error: "the fields listed above" only when fields were listed. */
export function hintForCode(error: HankweaveError): string | undefined {
  if (error.code === 'RUNTIME_INVALID_HANK') {
    const details = (error.details ?? {}) as { line?: unknown; errors?: unknown[] };
    if (typeof details.line === 'number') {
      return 'Fix the JSON syntax at that line and column (a trailing comma or a missing quote is the usual cause).';
    }
    if (!Array.isArray(details.errors) || details.errors.length === 0) {
      return `\`${commandHint('validate', '<hank>')}\` lists what is wrong with a hank without running it.`;
    }
  }
  if (error.code === 'RUNTIME_DATA_CHANGED') {
    const dir = error.details.executionDir;
    if (typeof dir === 'string') {
      return `Resume it with --execution ${dir}, or pass --start-new to start fresh on the changed data.`;
    }
  }
  if (error.code.endsWith('_INVALID') || error.code.includes('_INVALID_')) {
    return hintTable()[error.code] ?? 'Fix the value named above, then run the command again.';
  }
  return hintTable()[error.code];
}
