/**
 * The dashboard's integration tests make their executions as a person does, with the built CLI
 * (`apps/cli/dist/bin.js`, which also runs `hankweave ui`), through the CLI's own test harness.
 * A test-only link: the dashboard's package depends on no app (the CLI depends on it), and turbo
 * builds the CLI before this package's `test:int` (see turbo.json).
 */
export {
  BIN,
  createSandbox,
  executionDirOf,
  executionNames,
  runCli,
  type Sandbox,
  startCli,
} from '../../cli/test/cli-harness.js';
