/**
 * Whether an agent text says the conversation no longer fits (reference §4.5): the synthetic
 * `API Error: terminated`, "exceeded the … output token maximum", or "Prompt is too long".
 * `synthetic` is true for `<synthetic>` assistant messages, where `API Error: terminated` counts.
 */
export function isContextExceededText(text: string, options: { synthetic: boolean }): boolean {
  const lower = text.toLowerCase();
  if (options.synthetic && lower.trim() === 'api error: terminated') return true;
  if (lower.includes('exceeded the') && lower.includes('output token maximum')) return true;
  return lower.includes('prompt is too long');
}
