// The model side of a sentinel: the AI SDK, its five providers and Ajv, about 100 modules that
// every runtime start would otherwise load for hanks that have no sentinel. The manager imports
// this module with the first sentinel it loads (`loadLlmStack`), once per process.
export { callModel, prepareStructured, usageOfFailure } from './llm-call.js';
export { defaultTemperatureFor, resolveModel } from './models.js';

/** The functions of this module, as the runner receives them. */
export type LlmStack = typeof import('./llm-stack.js');
