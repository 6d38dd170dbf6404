import type { RegisterCommand } from './command-context.js';

/** A subcommand as the program knows it before loading it: its words, and its module. */
export interface CommandTableEntry {
  /** The names the command answers to: its name, then its aliases. */
  readonly words: readonly string[];
  /** Hidden commands are left out of help and of "did you mean" suggestions. */
  readonly hidden?: true;
  /** Its module (`src/commands/<name>.ts`), loaded only when the command line may need it. */
  readonly load: () => Promise<{ register: RegisterCommand }>;
}

/**
 * Every subcommand, in the order `--help` lists them. The modules are loaded lazily: a command
 * line loads the module of the command it names and no other, so `hankweave --attach` or
 * `hankweave status` never load the orchestrator, the agents or the sentinels' model SDKs that
 * `hankweave run` needs. `program.test.ts` checks that these words are the ones the modules
 * register.
 */
export const COMMAND_TABLE: readonly CommandTableEntry[] = [
  { words: ['validate'], load: () => import('./validate.js') },
  { words: ['doctor'], load: () => import('./doctor.js') },
  { words: ['init'], load: () => import('./init.js') },
  { words: ['pack'], load: () => import('./pack.js') },
  { words: ['status'], load: () => import('./status.js') },
  { words: ['events'], load: () => import('./events.js') },
  { words: ['traces'], load: () => import('./traces.js') },
  { words: ['checkpoints'], load: () => import('./checkpoints.js') },
  { words: ['diff'], load: () => import('./diff.js') },
  { words: ['rollback'], load: () => import('./rollback.js') },
  { words: ['cleanup'], load: () => import('./cleanup.js') },
  { words: ['sessions', 'ls'], load: () => import('./sessions.js') },
  { words: ['kill'], load: () => import('./kill.js') },
  { words: ['prune'], load: () => import('./prune.js') },
  { words: ['ui'], load: () => import('./ui.js') },
  { words: ['submit'], load: () => import('./submit.js') },
  { words: ['worker'], load: () => import('./worker.js') },
  { words: ['jobs'], load: () => import('./jobs.js') },
  { words: ['list', 'executions'], hidden: true, load: () => import('./guessed-commands.js') },
  { words: ['completion'], load: () => import('./completion.js') },
  { words: ['__complete'], hidden: true, load: () => import('./complete.js') },
];

/** The words of the commands that "did you mean" may suggest (not the hidden ones). */
export const SUGGESTED_WORDS: readonly string[] = COMMAND_TABLE.filter(
  (entry) => !entry.hidden,
).flatMap((entry) => entry.words);

// Commands that read every other command's declaration: the completion script and its
// answers list every command's words and flags.
const READS_ALL = new Set(['completion', '__complete']);

/**
 * The table entries a command line may need. Commander decides what the words mean; this only
 * has to load a superset of what it will use: the one command named in `args` (an argument equal
 * to one of its words), or none (the run command, the program itself, is always there). Every
 * command when the line names more than one (one of them may be an option's value), asks for
 * the program's help (which lists them all: `--help` without a command, `help`, or a bare
 * `hankweave`, which may print it), or names a command that reads them all.
 */
export function commandsFor(args: readonly string[]): readonly CommandTableEntry[] {
  // A bare `hankweave` may print the program's usage (off a terminal, with no hank.json here).
  if (args.length === 0) return COMMAND_TABLE;
  const named = COMMAND_TABLE.filter((entry) => entry.words.some((word) => args.includes(word)));
  const [only] = named;
  if (args.includes('help') || named.length > 1) return COMMAND_TABLE;
  if (only === undefined) {
    return args.some((arg) => arg === '-h' || arg === '--help') ? COMMAND_TABLE : [];
  }
  return only.words.some((word) => READS_ALL.has(word)) ? COMMAND_TABLE : named;
}
