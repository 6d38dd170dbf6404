import type { ExecutionCodonEntry } from '@hankweave/types';
import type { BuiltPrompts } from '../prompt/prompt-builder.js';

interface ConflictView {
  path: string;
  kind: string;
  branches: string[];
}

/**
 * A block's resolver gets the conflicts of the merge it settles after its own prompt: each file,
 * how it conflicted, and between which branches (the runtime put them in the plan entry when the
 * merge conflicted). Other codons' prompts are returned unchanged.
 */
export function withMergeConflicts(
  prompts: BuiltPrompts,
  entry: ExecutionCodonEntry,
): BuiltPrompts {
  const conflicts = (entry as { mergeConflicts?: ConflictView[] }).mergeConflicts;
  if (entry.parallelContext?.role !== 'resolver' || !Array.isArray(conflicts)) return prompts;
  const lines = conflicts.map(
    (conflict) =>
      `- ${JSON.stringify(conflict.path)}: ${conflict.kind} conflict between ${conflict.branches.join(' and ')}`,
  );
  return {
    ...prompts,
    prompt: `${prompts.prompt}\n\nThe merge of parallel block ${entry.parallelContext.blockId} conflicted. The files below hold the first branch's side; text conflicts carry diff3 markers (<<<<<<<, |||||||, =======, >>>>>>>) naming the branches. Resolve each and leave no markers:\n${lines.join('\n')}\n`,
  };
}
