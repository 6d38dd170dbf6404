import { formatJsonPath, type HankIssue } from './hank-issue.js';
import { clip } from './input-limits.js';

// Hanks written for the original runtime, and in the shapes this project shipped first, are
// accepted as they are; what is not written the canonical way gets a warning that says how.

/** `value[key]` for an own property of an object, else undefined. */
function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Warnings for the accepted-but-not-canonical shapes of a structurally valid hank (read from the
 * input as written, since parsing normalises them away):
 * - `deprecated_before_copy`: a beforeCopy item in the first shape `{run, workingDirectory?}`;
 * - `misplaced_working_directory`: `workingDirectory` beside `command` in a command item.
 */
export function compatWarnings(data: unknown): HankIssue[] {
  const warnings: HankIssue[] = [];
  for (const [index, item] of list(own(data, 'hank')).entries()) {
    if (own(item, 'type') !== 'parallel') {
      itemWarnings(item, ['hank', index], warnings);
      continue;
    }
    for (const [branchIndex, branch] of list(own(item, 'branches')).entries()) {
      for (const [at, inner] of list(own(branch, 'items')).entries())
        itemWarnings(inner, ['hank', index, 'branches', branchIndex, 'items', at], warnings);
    }
    const onConflict = own(own(item, 'merge'), 'onConflict');
    const resolver = own(onConflict, 'resolver');
    if (resolver !== undefined)
      codonWarnings(resolver, ['hank', index, 'merge', 'onConflict', 'resolver'], warnings);
  }
  return warnings;
}

function itemWarnings(item: unknown, path: PropertyKey[], warnings: HankIssue[]): void {
  if (own(item, 'type') === 'loop') {
    for (const [inner, codon] of list(own(item, 'codons')).entries())
      codonWarnings(codon, [...path, 'codons', inner], warnings);
  } else codonWarnings(item, path, warnings);
}

function codonWarnings(codon: unknown, path: PropertyKey[], warnings: HankIssue[]): void {
  for (const [index, op] of list(own(codon, 'rigSetup')).entries()) {
    if (own(op, 'type') === 'command')
      misplacedWorkingDirectory(op, [...path, 'rigSetup', index], warnings);
  }
  for (const [outIndex, output] of list(own(codon, 'outputFiles')).entries()) {
    for (const [index, item] of list(own(output, 'beforeCopy')).entries()) {
      const at = [...path, 'outputFiles', outIndex, 'beforeCopy', index];
      if (own(item, 'type') === 'command') {
        misplacedWorkingDirectory(item, at, warnings);
        continue;
      }
      const command: Record<string, unknown> = { run: own(item, 'run') };
      const workingDirectory = own(item, 'workingDirectory');
      if (workingDirectory !== undefined) command.workingDirectory = workingDirectory;
      warnings.push({
        path: formatJsonPath(at),
        code: 'deprecated_before_copy',
        message: `{"run": ...} is the deprecated beforeCopy shape; write the rig-command shape: ${clip(JSON.stringify({ type: 'command', command }), 300)}`,
      });
    }
  }
}

function misplacedWorkingDirectory(op: unknown, path: PropertyKey[], warnings: HankIssue[]): void {
  if (own(op, 'workingDirectory') === undefined) return;
  const inside = own(own(op, 'command'), 'workingDirectory') !== undefined;
  warnings.push({
    path: formatJsonPath([...path, 'workingDirectory']),
    code: 'misplaced_working_directory',
    message: inside
      ? 'workingDirectory belongs inside "command"; command.workingDirectory is set, so this one is ignored: remove it'
      : 'workingDirectory belongs inside "command": move it to command.workingDirectory (it is honoured there meanwhile; the original runtime ignores it)',
  });
}
