import type { AgentHarness } from '@hankweave/harness';
import type { HankConfigInput, HankSource, ModelCatalog } from '@hankweave/types';
import type { RuntimeLogger } from '../events/server-log.js';
import type { ReplayOptions } from '../replay/replay-options.js';
import type { SandboxMode } from '../sandbox/containment.js';
import type { SentinelHost } from './sentinel-host.js';

/** Options of `createRuntime`. Give `hank` (parsed hank.json) or `hankPath`. */
export interface CreateRuntimeOptions {
  /** The parsed hank.json; file references resolve against `hankDir` (default the cwd). */
  hank?: HankConfigInput | unknown;
  /** Path of hank.json (read and validated at `start()`). */
  hankPath?: string;
  /** Where the hank's files are; default the directory of `hankPath`. */
  hankDir?: string;
  /**
   * Where the hank came from, recorded in execution-meta.json (`hankSource`): a git URL and the
   * commit that ran, or a bundle and its hash. Default: `{kind: 'path'}` with the hank's path.
   */
  hankSource?: HankSource;
  /** The data the agents read (a file or a directory), linked at `agentRoot/read_only_data_source`. */
  dataPath: string;
  /** An explicit execution directory (created or resumed). Default: a managed one, resumed by data hash. */
  executionDir?: string;
  /** The parent of managed executions; default `$HANKWEAVE_RUNTIME_EXECUTION_BASE_DIR` or `~/.hankweave-executions`. */
  executionBaseDir?: string;
  /**
   * Extra fields for this execution's entry in the session registry (seed 004, snake_case names,
   * e.g. the CLI's `scripted_model` for a dry run, so the commands it prints can resume it).
   */
  sessionFields?: Record<string, string | number | boolean | null>;
  /** How long hashing the data may scan, in ms; wins over the hank's `overrides.dataHashTimeLimit`. */
  dataHashTimeLimitMs?: number;
  startNew?: boolean;
  force?: boolean;
  noWipe?: boolean;
  /** Copy the data instead of symlinking it. */
  copyData?: boolean;
  /**
   * No longer asked: a non-empty directory that is not an execution needs `force` (issue 31).
   * @deprecated pass `force`.
   */
  confirm?: (question: string) => boolean | Promise<boolean>;
  /**
   * The OS sandbox around every process started for the hank (agents with their tools, rig and
   * beforeCopy commands): `auto` (default) when this machine has one, else a warning at start;
   * `require` fails `start()` with RUNTIME_SANDBOX_UNAVAILABLE without one; `off` runs without.
   * See the README's "Containment".
   */
  sandbox?: SandboxMode;
  /**
   * Scans of agentRoot after tool calls from the file system's events instead of a walk, once a
   * scan lists `minFiles` tracked files (default 10,000; 0: from the first scan); `enabled: false`
   * always walks; `settleTimeoutMs` (default 2000) is how long a scan waits for the events to be
   * in before it walks instead. See the README's "Big trees".
   */
  fileWatch?: { enabled?: boolean; minFiles?: number; settleTimeoutMs?: number };
  /**
   * The agent adapter. Default: `ClaudeCodeHarness` from `@hankweave/claude-code`, an optional
   * peer dependency (install it to run Claude Code; pass your own harness and it is never loaded).
   */
  harness?: AgentHarness;
  /**
   * Check before the execution is created that every codon's provider has credentials and that
   * its API answers (default true). Skipped when `harness` is passed (the runtime cannot know
   * what another harness needs), and by replays. Fails start() with RUNTIME_NO_CREDENTIALS or
   * RUNTIME_API_UNREACHABLE.
   */
  preflight?: boolean;
  /** How long the preflight's API check may take per endpoint, in ms (default 3000). */
  preflightTimeoutMs?: number;
  /**
   * Model ids, aliases, providers and prices (default the built-in catalog of `@hankweave/types`):
   * the default harness prices agent usage with it and the sentinels price their calls with it.
   */
  models?: ModelCatalog;
  /** Sentinels; default none. */
  sentinels?: SentinelHost;
  /** Start running codons as soon as `start()` is done (default true). */
  autostart?: boolean;
  /**
   * Open a run when `start()` resumes an execution whose last run ended well (default true). A
   * runtime opened only to roll back (`hankweave rollback`, the dashboard's rollback) passes false:
   * the rollback opens its own run, so the execution records that one run, not an empty
   * `continue` run before it. Such a runtime runs no codon until a rollback has opened a run.
   */
  openRunAtStart?: boolean;
  /**
   * When a retriable failure would leave the runtime waiting for a command (onFailure "abort"),
   * fail the run and shut down instead (the CLI's `--headless`). Default false.
   */
  headless?: boolean;
  /** Override the model of every codon. */
  model?: string;
  /** Point the agent at another Messages API endpoint (a proxy, a scripted model). */
  anthropicBaseUrl?: string;
  /**
   * Point every Pi codon (models that are not Anthropic's) at one OpenAI-compatible Chat
   * Completions server: the scripted model's `/v1` in a dry run, or a local Ollama / vLLM. Without
   * it each provider's own API is used, or `<PROVIDER>_BASE_URL` from `env` (`OPENAI_BASE_URL`).
   * Sentinels on those models are sent there too (`@hankweave/sentinels`' `baseUrl`).
   */
  piBaseUrl?: string;
  /**
   * Pi's own retries of failed API requests (its default: on, like Claude Code's). A dry run turns
   * them off, as it does Claude Code's (`CLAUDE_CODE_MAX_RETRIES=0`): a scripted failure must reach
   * the runtime's failure policy at once, not after Pi's 2/4/8 s back-off.
   */
  piRetries?: boolean;
  /**
   * Forces the API family Pi speaks to a base URL (`openai-completions`, `openai-responses`,
   * `anthropic-messages`, `google-generative-ai`). By default a provider Pi knows keeps its own
   * (OpenAI models speak Responses, Gemini generateContent); a server that only has Chat
   * Completions behind `OPENAI_BASE_URL` (vLLM, a proxy) wants `openai-completions`. Sentinels
   * speak it there too.
   */
  piApi?: string;
  /**
   * The agent idle watchdog when the codon sets none (default 180 s). It wins over the hank's
   * `overrides.shimIdleTimeout`, as env and CLI values do (reference §1.10); a codon's own
   * `shimIdleTimeout` wins over it.
   */
  idleTimeoutMs?: number;
  /**
   * Sentinel settings of the runtime config; they win over the hank's `overrides.sentinel`.
   * `enablePersistence` (default true) keeps conversational sentinels' history on disk.
   */
  sentinel?: { enablePersistence?: boolean };
  /** Treat every rig failure as `allowFailure`. */
  ignoreRigFailures?: boolean;
  /**
   * Where completed codons' `outputFiles` are copied (reference §1.6; the CLI's `-o/--output`),
   * relative to the cwd. Without it nothing is copied and the start says so for each codon.
   */
  outputDirectory?: string;
  /** Replace output files of the same name instead of renaming (`--overwrite-output`). */
  overwriteOutput?: boolean;
  /** Kill rig commands after this long (default: no limit). */
  rigCommandTimeoutMs?: number;
  /** The environment agents and rig commands start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Receives every server.log line too. */
  logger?: Partial<RuntimeLogger>;
  /** SIGTERM → SIGKILL grace when stopping an agent (default 5000 ms). */
  killGraceMs?: number;
  /**
   * The runtime budget (`hankweave.json budget`): each ceiling combines with the hank's
   * `overrides.budget` as the smaller of the two (reference §1.7).
   */
  budget?: { maxDollars?: number; maxTimeSeconds?: number };
  /** A dollar ceiling (> 0) that replaces the runtime's and the hank's (`--max-cost`). */
  maxCost?: number;
  /** A time ceiling in seconds (> 0) that replaces the runtime's and the hank's (`--max-time`). */
  maxTime?: number;
  /**
   * Replay a recorded execution (reference §8.2, the CLI's `--replay`): each codon gets its
   * recorded agent log instead of an agent, into a new execution. Pacing: `speed`, `maxDelayMs`,
   * `minDelayMs`, else `HANKWEAVE_REPLAY_MAX_DELAY_MS` / `HANKWEAVE_REPLAY_SPEED_MS`.
   */
  replay?: ReplayOptions;
  clock?: () => Date;
}
