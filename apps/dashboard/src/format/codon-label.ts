/**
 * Labels that tell a loop's iterations apart: every iteration of a loop codon has the same name
 * (`Polish the summary`), so each label carries its iteration from the runtime id (`polish-pass#1`).
 */

/** `#1` for the runtime id of a loop iteration (`polish-pass#1`), '' for any other codon. */
export function iterationOf(codonId: string): string {
  const match = /#(\d+)$/.exec(codonId);
  return match ? `#${match[1]}` : '';
}

/** The codon's name with its iteration, if it is one: `Polish the summary #1`. */
export function codonLabel(name: string | undefined, codonId: string): string {
  const iteration = iterationOf(codonId);
  const base = name || codonId.replace(/#\d+$/, '');
  return iteration ? `${base} ${iteration}` : base;
}
