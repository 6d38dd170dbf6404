/**
 * A copy of a raw hank.json (before validation) with every codon's model set to `model`: top-level
 * codons, loop codons, the codons of a parallel block's branches and its resolver. What a run does
 * with `--model` and with `overrides.model`; done on the raw input so validation then checks the
 * models the run will use. Anything that is not a hank is returned copied and unchanged.
 */
export function withModelOverride(raw: unknown, model: string): unknown {
  const copy = structuredClone(raw) as { hank?: unknown } | null;
  if (!Array.isArray(copy?.hank)) return copy;
  const override = (item: unknown) => {
    if (!item || typeof item !== 'object') return;
    const fields = item as Record<string, unknown>;
    if (fields.type === 'loop') {
      for (const codon of Array.isArray(fields.codons) ? fields.codons : []) override(codon);
    } else if (fields.type === 'parallel') {
      for (const branch of Array.isArray(fields.branches) ? fields.branches : []) {
        const inner = (branch as { items?: unknown } | null)?.items;
        for (const codon of Array.isArray(inner) ? inner : []) override(codon);
      }
      const merge = fields.merge as { onConflict?: { resolver?: unknown } } | undefined;
      override(merge?.onConflict?.resolver);
    } else {
      fields.model = model;
    }
  };
  for (const item of copy.hank) override(item);
  return copy;
}
