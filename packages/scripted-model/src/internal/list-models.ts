import type { Script } from '../script-schema.js';

/** The id listed when the script names no model: any id works, since requests match by marker. */
export const GENERIC_MODEL_ID = 'scripted-model';

/** The model ids a script mentions (`when.model`), in order, without repeats; else the generic id. */
export function scriptModelIds(script: Script): string[] {
  const ids = new Set<string>();
  for (const conversation of script.conversations) {
    for (const slot of conversation.turns) {
      for (const turn of 'choose' in slot ? slot.choose : [slot]) {
        if (turn.when?.model !== undefined) ids.add(turn.when.model);
      }
    }
  }
  return ids.size === 0 ? [GENERIC_MODEL_ID] : [...ids];
}

/**
 * The answer to `GET /v1/models`, readable by both APIs' clients: OpenAI's list
 * (`object: 'list'`, entries with `object: 'model'`, `owned_by`) and Anthropic's page
 * (`has_more`, `first_id`, `last_id`, entries with `type: 'model'`, `display_name`).
 */
export function modelList(script: Script): Record<string, unknown> {
  const ids = scriptModelIds(script);
  return {
    object: 'list',
    data: ids.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      created: 0,
      created_at: '1970-01-01T00:00:00Z',
      owned_by: 'scripted-model',
      display_name: id,
    })),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
  };
}
