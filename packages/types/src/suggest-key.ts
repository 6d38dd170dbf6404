// The "did you mean" of every name a person types: hank.json fields (validateHank), model ids
// (the catalog's checkModelId), hankweave.json keys and HANKWEAVE_RUNTIME_* names (the runtime),
// event types (the CLI). It is in @hankweave/types because checkModelId, part of the model
// catalog, needs it; one copy keeps one spelling tolerance for all of them.

/** Names people type for a field, and the field they meant (reference §1.11 `FIELD_TYPO_MAP`). */
export const FIELD_TYPO_MAP: Readonly<Record<string, string>> = {
  systemPromptFile: 'appendSystemPromptFile',
  systemPromptText: 'appendSystemPromptText',
  systemPrompt: 'appendSystemPromptText',
  prompt: 'promptText',
  prompts: 'promptFile',
  promptFiles: 'promptFile',
  tracking: 'checkpointedFiles',
  tracked: 'checkpointedFiles',
  watchedFiles: 'checkpointedFiles',
  fileTracking: 'checkpointedFiles',
  rig: 'rigSetup',
  setup: 'rigSetup',
  preSetup: 'rigSetup',
  archiveRigs: 'archiveOnSuccess',
  rigTeardown: 'archiveOnSuccess',
  teardown: 'archiveOnSuccess',
  archive: 'archiveOnSuccess',
  cleanup: 'archiveOnSuccess',
  archiveRig: 'archiveOnSuccess',
  archiving: 'archiveOnSuccess',
  archives: 'archiveOnSuccess',
  environment: 'env',
  envVars: 'env',
  outputs: 'outputFiles',
  output: 'outputFiles',
  continuation: 'continuationMode',
  mode: 'continuationMode',
  costLimit: 'budget.maxDollars',
  maxBudget: 'budget.maxDollars',
  maxCost: 'budget.maxDollars',
  maxDollars: 'budget.maxDollars',
  maxDuration: 'budget.maxTimeSeconds',
  maxDurationSeconds: 'budget.maxTimeSeconds',
  maxTimeSeconds: 'budget.maxTimeSeconds',
  timeLimit: 'budget.maxTimeSeconds',
  maxTokens: 'budget.maxOutputTokens',
  maxOutputTokens: 'budget.maxOutputTokens',
  tokenLimit: 'budget.maxOutputTokens',
};

/** Longer unknown keys get no "did you mean": the longest field name has 22 characters. */
const MAX_HINTED_KEY_LENGTH = 64;

/** Edit distance, for "did you mean" on plain misspellings. */
function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] as number;
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}

/**
 * The field the user most likely meant: the typo map first (only when its suggestion exists
 * here), then the closest known key within a small edit distance.
 */
export function suggestKey(unknownKey: string, knownKeys: readonly string[]): string | undefined {
  // Own entries only: `valueOf`, `constructor`, `__proto__` ... are not in the map, whatever
  // Object.prototype says.
  const mapped = Object.hasOwn(FIELD_TYPO_MAP, unknownKey) ? FIELD_TYPO_MAP[unknownKey] : undefined;
  if (mapped && knownKeys.includes(mapped.split('.')[0] as string)) return mapped;
  return closestKeys(unknownKey, knownKeys, 1)[0];
}

/**
 * Up to `limit` known keys within a small edit distance of `unknownKey`, closest first (the
 * known keys' order breaks ties). No typo map: the model catalog's ids use this.
 */
export function closestKeys(
  unknownKey: string,
  knownKeys: readonly string[],
  limit: number,
): string[] {
  // No field name is near this long; the edit distance would cost |key| x |field| per field.
  if (unknownKey.length > MAX_HINTED_KEY_LENGTH) return [];
  const tolerance = Math.max(2, Math.floor(unknownKey.length / 4));
  const close: { key: string; score: number }[] = [];
  for (const key of knownKeys) {
    // The length difference is a lower bound of the distance: skip what cannot be close.
    if (Math.abs(key.length - unknownKey.length) > tolerance) continue;
    const score = distance(unknownKey, key);
    if (score <= tolerance) close.push({ key, score });
  }
  // Array.prototype.sort is stable: equal scores keep the known keys' order.
  return close
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((entry) => entry.key);
}
