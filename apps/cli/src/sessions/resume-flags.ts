import { basename, dirname } from 'node:path';
import { pipelineSessionKey, SessionRegistry, toSessionName } from '@hankweave/sessions';
import { shellArg } from '../output/command-hint.js';

/**
 * The flags a printed resume command needs for an execution to run as printed: a dry run's
 * `--scripted-model <script>` (recorded by `run` in the session registry as `scripted_model`),
 * else none. Never throws: without a readable registry the command is printed bare.
 */
export async function resumeFlagsOf(executionDir: string): Promise<string[]> {
  try {
    const { sessions } = await new SessionRegistry(dirname(executionDir)).read();
    const entry = sessions[pipelineSessionKey(toSessionName(basename(executionDir)))];
    const script = entry?.scripted_model;
    return typeof script === 'string' && script !== ''
      ? ['--scripted-model', shellArg(script)]
      : [];
  } catch {
    return [];
  }
}
