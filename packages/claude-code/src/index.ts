// Public surface of @hankweave/claude-code: named exports only.

export {
  ClaudeCodeHarness,
  type ClaudeCodeHarnessOptions,
} from './claude-code-harness.js';
export {
  CLAUDE_CODE_PACKAGE,
  type ClaudeBinarySource,
  type ResolveClaudeBinaryOptions,
  type ResolvedClaudeBinary,
  resolveClaudeBinary,
} from './resolve-claude-binary.js';
