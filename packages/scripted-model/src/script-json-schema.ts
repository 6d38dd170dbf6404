import { z } from 'zod';
import {
  contentBlockSchema,
  conversationSchema,
  failureSchema,
  scriptSchema,
  turnSchema,
  usageSchema,
  whenSchema,
} from './script-schema.js';

/**
 * The JSON Schema of a script (draft 2020-12), as shipped at
 * `@hankweave/scripted-model/schemas/script.schema.json`. It describes what authors write
 * (the input side: fields with defaults are optional). Cross-field rules (a turn needs content
 * or a failure; `times` needs `fail`) are checked by {@link parseScript} only.
 */
export function buildScriptJsonSchema(): Record<string, unknown> {
  // A private registry names the shared parts ($defs/Turn, …) without touching zod's global one.
  const registry = z.registry<{ id: string }>();
  registry.add(conversationSchema, { id: 'Conversation' });
  registry.add(turnSchema, { id: 'Turn' });
  registry.add(contentBlockSchema, { id: 'ContentBlock' });
  registry.add(failureSchema, { id: 'Failure' });
  registry.add(whenSchema, { id: 'When' });
  registry.add(usageSchema, { id: 'Usage' });
  return {
    ...z.toJSONSchema(scriptSchema, {
      io: 'input',
      unrepresentable: 'any',
      metadata: registry,
      // A custom registry hides the descriptions kept in zod's global one; copy them back.
      override: ({ zodSchema, jsonSchema }) => {
        const description = z.globalRegistry.get(zodSchema)?.description;
        if (description !== undefined) jsonSchema.description ??= description;
      },
    }),
    title: '@hankweave/scripted-model script',
    description: 'What a scripted model answers: conversations of turns, with failures on demand.',
  };
}
