import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@hankweave/durable-io/testing';
import type { AgentEvent, AgentOutcome, AgentSession, AgentStartOptions } from '@hankweave/harness';
import {
  type ScriptedModel,
  type ScriptInput,
  startScriptedModel,
} from '@hankweave/scripted-model';
import { ClaudeCodeHarness, type ClaudeCodeHarnessOptions } from '../../src/index.js';

/**
 * Where recorded real-agent logs are kept: the parser and replay fixtures of @hankweave/harness,
 * whose tests read them without running an agent. Only UPDATE_HARNESS_FIXTURES=1 writes there.
 */
export const AGENT_LOG_FIXTURES = fileURLToPath(
  new URL('../../../harness/test/fixtures/agent-logs/', import.meta.url),
);

/** The model every real-agent test asks for (the scripted model answers any). */
export const TEST_MODEL = 'claude-sonnet-4-5';

/** A real Claude Code pointed at a scripted model, with a private HOME, cwd and log dir. */
export interface ScriptedAgent {
  model: ScriptedModel;
  harness: ClaudeCodeHarness;
  home: string;
  cwd: string;
  logDir: string;
  /** Start options with the test's cwd and a fresh log path per call. */
  options(overrides?: Partial<AgentStartOptions>): AgentStartOptions;
  dispose(): Promise<void>;
}

let logCounter = 0;

/**
 * Starts a scripted model and a harness for it. `agentEnv` goes into the agent's environment
 * (through `baseEnv`, so it also exercises the passthrough rules).
 */
export async function scriptedAgent(
  script: ScriptInput,
  agentEnv: Record<string, string> = {},
  harnessOptions: ClaudeCodeHarnessOptions = {},
): Promise<ScriptedAgent> {
  const dir = await makeTempDir('hw-claude-code-');
  const root = dir.path;
  const home = join(root, 'home');
  const cwd = join(root, 'agentRoot');
  const logDir = join(root, 'runs');
  await Promise.all([mkdir(home), mkdir(cwd), mkdir(join(root, 'tmp'))]);
  const model = await startScriptedModel({ script });
  const harness = new ClaudeCodeHarness({
    anthropicBaseUrl: model.url,
    allowRootSandbox: true,
    baseEnv: {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: join(root, 'tmp'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      ANTHROPIC_API_KEY: 'sk-scripted-dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...agentEnv,
    },
    ...harnessOptions,
  });
  return {
    model,
    harness,
    home,
    cwd,
    logDir,
    options: (overrides = {}) => ({
      codonId: 'codon#0',
      runId: 'run-test',
      model: TEST_MODEL,
      prompt: 'Do the task.',
      cwd,
      logPath: join(logDir, `codon#0-${++logCounter}-claude.log`),
      idleTimeoutMs: 60_000,
      ...overrides,
    }),
    async dispose() {
      await model.close();
      await dir.cleanup();
    },
  };
}

/** Every event of a session, and its outcome. */
export async function runToEnd(
  session: AgentSession,
): Promise<{ events: AgentEvent[]; outcome: AgentOutcome }> {
  const events: AgentEvent[] = [];
  for await (const event of session.events) events.push(event);
  return { events, outcome: await session.outcome };
}

/** The parsed lines of a log. */
export async function readLog(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** With UPDATE_HARNESS_FIXTURES=1, keeps a log as a parser fixture. */
export async function maybeRecordFixture(logPath: string, name: string): Promise<void> {
  if (process.env.UPDATE_HARNESS_FIXTURES !== '1') return;
  await mkdir(AGENT_LOG_FIXTURES, { recursive: true });
  await copyFile(logPath, join(AGENT_LOG_FIXTURES, `${name}.log`));
}

/** The events of one type, narrowed. */
export const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

/** The agent's own API retries off, so a failure ends the run in about a second. */
export const NO_RETRIES = { CLAUDE_CODE_MAX_RETRIES: '0' };
