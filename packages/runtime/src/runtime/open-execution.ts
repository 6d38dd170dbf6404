import { dirname, resolve } from 'node:path';
import { CheckpointEngine } from '@hankweave/checkpoints';
import { readRegularFileSync } from '@hankweave/durable-io';
import { ChangeScanner, listCopyTree, UnifiedFileResolver } from '@hankweave/files';
import { validateHank, withModelOverride } from '@hankweave/hank';
import { createFileJournal } from '@hankweave/journal';
import { acquireRuntimeLock, type RuntimeLockHandle, StateStore } from '@hankweave/state';
import {
  defaultModelCatalog,
  describeJsonError,
  HARNESS_NAMES,
  type HankConfig,
  isParallelConfig,
  itemCodons,
  parseJsonWithLocation,
} from '@hankweave/types';
import { AgentRootWatch } from '../codon/agent-root-watch.js';
import { DataSourceWatches } from '../data-guard/data-source-watches.js';
import { RuntimeError } from '../errors.js';
import { EventBus } from '../events/event-bus.js';
import { createServerLog } from '../events/server-log.js';
import { hashHank } from '../execution/data-hash.js';
import { prepareExecution } from '../execution/execution-dir.js';
import { preflight } from '../preflight/preflight.js';
import { containmentRecord, resolveContainment } from '../sandbox/containment.js';
import { executionSandboxPolicy } from '../sandbox/execution-sandbox.js';
import { SessionTracker } from '../session-tracking/session-tracker.js';
import type { CreateRuntimeOptions } from './create-runtime-options.js';
import {
  defaultHarnessLoaders,
  installedHarnesses,
  loadDefaultHarness,
} from './default-harness.js';
import { defaultSentinels } from './default-sentinels.js';
import type { RuntimeContext, RuntimeSettings } from './runtime-context.js';
import type { SentinelHost } from './sentinel-host.js';

/** A hank.json larger than this is not read (validation bounds what it may hold anyway). */
const MAX_HANK_BYTES = 64 * 1024 * 1024;

/** The loaded hank: the parsed config and where its files are. */
export interface LoadedHank {
  config: HankConfig;
  raw: unknown;
  hankDir: string;
  hankPath: string;
  warnings: string[];
}

/**
 * Loads and validates hank.json (a `--model` override applies to every codon before validation).
 * A hank without `meta` is named after its file (see validateHank's `hankPath`).
 *
 * @throws {RuntimeError} RUNTIME_HANK_NOT_FOUND, RUNTIME_INVALID_HANK (details.errors lists every
 *   issue with its JSON path; when the file is not JSON, details also has `line` and `column`,
 *   and the message is `<file>:<line>:<column>: <what>`, quoting nothing of the file).
 */
export function loadHank(
  options: Pick<
    CreateRuntimeOptions,
    'hank' | 'hankPath' | 'hankDir' | 'model' | 'env' | 'models' | 'harness'
  >,
): LoadedHank {
  let raw: unknown;
  let hankPath: string;
  if (options.hank !== undefined) {
    raw = structuredClone(options.hank);
    hankPath = resolve(options.hankPath ?? resolve(options.hankDir ?? process.cwd(), 'hank.json'));
  } else if (options.hankPath !== undefined) {
    hankPath = resolve(options.hankPath);
    let text: string;
    try {
      // Only a regular file: a FIFO named as hank.json must not hang the start.
      text = readRegularFileSync(hankPath, { maxBytes: MAX_HANK_BYTES }).toString('utf8');
    } catch (cause) {
      throw new RuntimeError(
        'RUNTIME_HANK_NOT_FOUND',
        `Cannot read ${hankPath}: ${(cause as Error).message}`,
        { cause, details: { hankPath } },
      );
    }
    const parsed = parseJsonWithLocation(text, hankPath);
    if (!parsed.ok) {
      const { line, column } = parsed.error;
      // Where, and what, but not a character of the file: the path may name any readable file
      // (a job added by another tool, a crafted link), and this message travels (job errors,
      // journals, logs). The CLI shows the offending line itself, for the user's own file.
      const message = describeJsonError(parsed.error.message);
      // One issue, so that details.errors (the list callers print) is never empty.
      const errors = [
        { path: '(root)', code: 'invalid_json', message: `${line}:${column}: ${message}` },
      ];
      throw new RuntimeError('RUNTIME_INVALID_HANK', `${hankPath}:${line}:${column}: ${message}`, {
        details: { hankPath, line, column, errors },
      });
    }
    raw = parsed.value;
  } else {
    throw new RuntimeError(
      'RUNTIME_HANK_NOT_FOUND',
      'createRuntime needs `hank` (the parsed hank.json) or `hankPath`',
      {},
    );
  }
  const hankDir = resolve(options.hankDir ?? dirname(hankPath));
  // `--model` wins over the hank's own `overrides.model`; either replaces every codon's model
  // (reference §1.10: hank overrides < env < CLI).
  const model = options.model ?? hankModelOverride(raw);
  if (model) raw = withModelOverride(raw, model);
  const result = validateHank(raw, {
    hankDir,
    hankPath,
    env: options.env ?? process.env,
    ...(options.models ? { models: options.models } : {}),
    // A harness of the embedder's own runs whatever it runs; else the installed adapters decide.
    harnesses: options.harness ? HARNESS_NAMES : installedHarnesses(),
    // A rig copy skips what the hank's .gitignore (or the defaults) ignores: so does the check.
    copyTree: listCopyTree,
  });
  if (!result.valid || !result.config) {
    const list = result.errors.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n');
    throw new RuntimeError('RUNTIME_INVALID_HANK', `${hankPath} is not a valid hank:\n${list}`, {
      details: { hankPath, errors: result.errors },
    });
  }
  refuseUnsupported(result.config, hankPath);
  return {
    config: result.config,
    raw,
    hankDir,
    hankPath,
    warnings: result.warnings.map((warning) => `${warning.path}: ${warning.message}`),
  };
}

function hankModelOverride(raw: unknown): string | undefined {
  const model = (raw as { overrides?: { model?: unknown } } | null)?.overrides?.model;
  return typeof model === 'string' && model.length > 0 ? model : undefined;
}

/**
 * Refuses what a valid hank may say about parallel blocks (issue 36) that this runtime does not
 * run yet, rather than accept it and ignore it: a block's own `budget`, and a hank budget that is
 * not `shared` around a block (its shares name items, and a block's spending is not yet counted
 * as one item).
 *
 * @throws {RuntimeError} RUNTIME_UNSUPPORTED_FEATURE (details.feature, details.items: the
 *   blocks' ids, details.hankPath).
 */
function refuseUnsupported(config: HankConfig, hankPath: string): void {
  const blocks = config.hank.filter(isParallelConfig);
  if (blocks.length === 0) return;
  const refuse = (feature: string, items: string[], message: string): never => {
    throw new RuntimeError('RUNTIME_UNSUPPORTED_FEATURE', `${hankPath}: ${message}`, {
      details: { hankPath, feature, items },
    });
  };
  const budgeted = blocks.filter((block) => block.budget !== undefined).map((block) => block.id);
  if (budgeted.length > 0) {
    refuse(
      'parallel-budget',
      budgeted,
      `parallel block ${budgeted.join(', ')} sets its own budget, which this runtime does not enforce yet. Move the limit to the hank's overrides.budget (shared by every branch) or to the codons`,
    );
  }
  const allocation = config.overrides?.budget?.allocation ?? 'shared';
  if (allocation !== 'shared') {
    refuse(
      'parallel-allocation',
      blocks.map((block) => block.id),
      `overrides.budget.allocation is ${allocation}, which this runtime does not apply around a parallel block yet. Use "shared"`,
    );
  }
}

/**
 * Refuses sentinels on a parallel block's codons when the embedder's sentinel host cannot open a
 * host per branch (`SentinelHost.forBranch`): one host cannot watch codons that run at once.
 *
 * @throws {RuntimeError} RUNTIME_UNSUPPORTED_FEATURE (details.feature `parallel-sentinels`,
 *   details.items: the codons' ids, details.hankPath).
 */
function refuseBranchSentinels(config: HankConfig, hankPath: string, host: SentinelHost): void {
  if (host.forBranch) return;
  const watched = config.hank
    .filter(isParallelConfig)
    .flatMap((block) => itemCodons(block))
    .filter((codon) => (codon.sentinels ?? []).length > 0)
    .map((codon) => codon.id);
  if (watched.length === 0) return;
  throw new RuntimeError(
    'RUNTIME_UNSUPPORTED_FEATURE',
    `${hankPath}: codon ${watched.join(', ')} of a parallel block has sentinels, and the sentinel host passed as \`sentinels\` has no forBranch to watch branches that run at once`,
    { details: { hankPath, feature: 'parallel-sentinels', items: watched } },
  );
}

/** The open resources of an execution, for the runtime to drive and close. */
export interface OpenExecution {
  context: RuntimeContext;
  lock: RuntimeLockHandle;
  created: boolean;
  /** Aborts `context.abandoned`: a forced shutdown, after which nothing more is recorded. */
  abandon(): void;
}

/**
 * Finds or creates the execution directory, takes `runtime.lock`, and opens the checkpoint
 * repository, the state store and the journal. Everything opened is closed again if a later
 * step fails.
 */
export async function openExecution(
  options: CreateRuntimeOptions,
  hank: LoadedHank,
  settings: RuntimeSettings,
): Promise<OpenExecution> {
  if (options.sentinels) refuseBranchSentinels(hank.config, hank.hankPath, options.sentinels);
  // Before anything is created: a run that cannot reach its model fails here, not a minute in.
  if (options.preflight !== false && options.harness === undefined) {
    await preflight({
      config: hank.config,
      env: settings.env,
      ...(settings.anthropicBaseUrl !== undefined && {
        anthropicBaseUrl: settings.anthropicBaseUrl,
      }),
      ...(settings.piBaseUrl !== undefined && { piBaseUrl: settings.piBaseUrl }),
      ...(options.preflightTimeoutMs !== undefined && { timeoutMs: options.preflightTimeoutMs }),
      ...(options.models !== undefined && { models: options.models }),
    });
  }
  const clock = options.clock ?? (() => new Date());
  // Also before anything is created: `require` without a sandbox refuses here.
  const containment = await resolveContainment(settings.sandbox, settings.env);
  let lock: RuntimeLockHandle | undefined;
  const prepared = await prepareExecution({
    dataPath: options.dataPath,
    hankPath: hank.hankPath,
    hankHash: hashHank(hank.raw),
    ...(options.executionDir !== undefined ? { executionDir: options.executionDir } : {}),
    ...(options.startNew !== undefined ? { startNew: options.startNew } : {}),
    ...(options.force !== undefined ? { force: options.force } : {}),
    ...(options.noWipe !== undefined ? { noWipe: options.noWipe } : {}),
    ...(options.copyData !== undefined ? { copyData: options.copyData } : {}),
    ...(options.dataHashTimeLimitMs !== undefined
      ? { dataHashTimeLimitMs: options.dataHashTimeLimitMs }
      : hank.config.overrides?.dataHashTimeLimit !== undefined
        ? { dataHashTimeLimitMs: hank.config.overrides.dataHashTimeLimit }
        : {}),
    ...(options.executionBaseDir !== undefined ? { baseDir: options.executionBaseDir } : {}),
    containment: containmentRecord(containment, clock().toISOString()),
    // Default (prepareExecution): what a resume of the same hank.json recorded (a git URL at a
    // commit survives a rollback or a resume by path), else the hank's path.
    ...(options.hankSource !== undefined ? { hankSource: options.hankSource } : {}),
    now: clock,
    beforeWrite: async (layout) => {
      lock = await acquireRuntimeLock(layout.hankweaveDir, { clock });
    },
  }).catch(async (error: unknown) => {
    await lock?.release();
    throw error;
  });
  const { layout } = prepared;
  const held: RuntimeLockHandle | undefined = lock;
  if (held === undefined) throw new RuntimeError('RUNTIME_INTERNAL', 'runtime.lock was not taken');
  const models = options.models ?? defaultModelCatalog;
  const log = createServerLog(layout.serverLog, options.logger, clock);
  log.info(
    `Starting HankweaveRuntime in ${layout.executionDir} (${prepared.created ? 'new execution' : 'resumed'})`,
  );
  for (const warning of [...hank.warnings, ...prepared.warnings]) log.warn(warning);
  if (held.previous)
    log.warn(
      `Took over runtime.lock from pid ${held.previous.lock?.pid ?? '?'} (${held.previous.reason ?? 'stale'})`,
    );
  const opened: { close(): Promise<unknown> }[] = [{ close: () => held.release() }];
  try {
    const engine = await CheckpointEngine.open({ executionDir: layout.executionDir });
    opened.push(engine);
    const store = await StateStore.open(layout.hankweaveDir, {
      lock: held,
      clock,
      checkpointExists: (sha) => engine.exists(sha),
      logger: { warn: (message: string) => log.warn(message) },
    });
    opened.push(store);
    if (
      store.recovery.source === 'backup' ||
      (store.recovery.source === 'fresh' && !prepared.created)
    ) {
      log.warn(`state.json was loaded from ${store.recovery.source}: ${store.recovery.reason}`);
    }
    const journal = await createFileJournal({
      hankweaveDir: layout.hankweaveDir,
      onWarning: (warning) => log.warn(`Journal: ${warning.message}`),
    });
    opened.push(journal);
    const bus = new EventBus({
      sink: journal,
      // Acknowledge after durable: no event is journaled or delivered before the state
      // transitions applied before it are on disk.
      barrier: {
        isDurable: () => {
          const stats = store.stats();
          return stats.durable >= stats.applied;
        },
        flush: () => store.flush(),
      },
      clock,
      onError: (error, what) => log.error(`${what} failed: ${(error as Error).message}`),
    });
    const resolver = new UnifiedFileResolver();
    const abandonment = new AbortController();
    let context: RuntimeContext | undefined;
    const sentinels =
      options.sentinels ??
      defaultSentinels({
        hankDir: hank.hankDir,
        hankweaveDir: layout.hankweaveDir,
        agentRoot: layout.agentRoot,
        env: {
          ...settings.env,
          ...(settings.anthropicBaseUrl ? { ANTHROPIC_BASE_URL: settings.anthropicBaseUrl } : {}),
        },
        ...(settings.piBaseUrl ? { piBaseUrl: settings.piBaseUrl } : {}),
        ...(settings.piApi ? { piApi: settings.piApi } : {}),
        models,
        persistHistory:
          options.sentinel?.enablePersistence ??
          hank.config.overrides?.sentinel?.enablePersistence ??
          true,
        bus,
        abandoned: abandonment.signal,
        log,
        context: () => context,
      });
    const sessions = new SessionTracker({
      executionDir: layout.executionDir,
      hankPath: hank.hankPath,
      hankName: hank.config.meta?.name ?? hank.hankPath,
      dataPath: prepared.meta.readOnlySourceResolvedDataPath,
      config: hank.config,
      env: settings.env,
      clock,
      log,
      ...(options.sessionFields ? { fields: options.sessionFields } : {}),
    });
    await sessions.open();
    context = {
      config: hank.config,
      hankDir: hank.hankDir,
      hankPath: hank.hankPath,
      layout,
      store,
      journal,
      engine,
      harness:
        options.harness ??
        (await loadDefaultHarness(
          models,
          defaultHarnessLoaders(settings, models, layout.hankweaveDir),
        )),
      sentinels,
      sessions,
      bus,
      log,
      resolver,
      scanner: new ChangeScanner(layout.agentRoot, { resolver }),
      fileWatch: new AgentRootWatch(layout.agentRoot, settings.fileWatch, log),
      dataWatch: new DataSourceWatches(settings.fileWatch, log),
      settings,
      containment,
      sandbox: executionSandboxPolicy({
        containment,
        layout,
        hankDir: hank.hankDir,
        dataPaths: [
          resolve(prepared.meta.readOnlySourceDataPath),
          prepared.meta.readOnlySourceResolvedDataPath,
        ],
        env: settings.env,
      }),
      models,
      clock,
      startedAt: Date.now(),
      abandoned: abandonment.signal,
      liveSpend: { dollars: 0 },
    };
    // agentRoot's sentinels see the events emitted outside parallel branches; a branch's host
    // sees its branch's (see `parallel/branch-context.ts`).
    bus.subscribe((event) => {
      if (bus.originOf(event) === undefined) sentinels.observe(event);
    });
    return { context, lock: held, created: prepared.created, abandon: () => abandonment.abort() };
  } catch (error) {
    for (const resource of opened.reverse()) await resource.close().catch(() => {});
    throw error;
  }
}
