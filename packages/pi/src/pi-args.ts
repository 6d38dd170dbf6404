import type { PiModel } from './pi-model.js';

/** The tools of the original's Pi harness (reference §4.3, `PI_TOOLS`). */
export const PI_TOOLS: readonly string[] = Object.freeze([
  'read',
  'bash',
  'edit',
  'write',
  'grep',
  'find',
  'ls',
]);

/** Inputs of {@link buildPiArgs}. */
export interface PiArgsInput {
  model: PiModel;
  sessionDir: string;
  resumeSessionId?: string;
  /**
   * A file holding the text to append to Pi's system prompt. A file, not the text: Pi reads an
   * argument that names an existing file as that file, and a file has no argument size limit.
   */
  appendSystemPromptFile?: string;
}

/**
 * The command line of one Pi run (after `cli.js`): JSON lines on stdout, print mode with the
 * prompt on stdin (never limited by the argument size or visible in `ps`), offline (no version
 * check, no downloads, no telemetry), and nothing discovered from the user's setup (extensions,
 * skills, prompt templates, themes): what runs is what the hank says.
 */
export function buildPiArgs(input: PiArgsInput, extraArgs: readonly string[] = []): string[] {
  const args = [
    '--mode',
    'json',
    '-p',
    '--offline',
    '--provider',
    input.model.provider,
    '--model',
    input.model.model,
    '--tools',
    PI_TOOLS.join(','),
    '--session-dir',
    input.sessionDir,
    '--no-extensions',
    '--no-skills',
    '--no-prompt-templates',
    '--no-themes',
  ];
  if (input.model.thinking !== undefined) args.push('--thinking', input.model.thinking);
  if (input.resumeSessionId !== undefined) args.push('--session', input.resumeSessionId);
  if (input.appendSystemPromptFile !== undefined) {
    args.push('--append-system-prompt', input.appendSystemPromptFile);
  }
  args.push(...extraArgs);
  return args;
}
