export {
  SCRIPTED_MODEL_ERROR_CODES,
  ScriptedModelError,
  type ScriptedModelErrorCode,
} from './errors.js';
export { loadScript, parseScript } from './load-script.js';
export type { RecordedRequest, RequestKind, RequestMatch } from './recorded-request.js';
export { buildScriptJsonSchema } from './script-json-schema.js';
export {
  type ContentBlock,
  type Conversation,
  contentBlockSchema,
  conversationSchema,
  type Failure,
  failureSchema,
  matchSchema,
  type Script,
  type ScriptInput,
  type Slot,
  scriptSchema,
  slotSchema,
  type Turn,
  turnSchema,
  type Usage,
  usageSchema,
  type When,
  whenSchema,
} from './script-schema.js';
export {
  type ScriptedModel,
  type ScriptedModelOptions,
  startScriptedModel,
} from './start-scripted-model.js';
