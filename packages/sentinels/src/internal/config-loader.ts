import { dirname, resolve } from 'node:path';
import { readRegularTextFile } from '@hankweave/durable-io';
import {
  type CodonSentinelEntry,
  describeJsonError,
  type SentinelCondition,
  type SentinelConfig,
  sentinelConfigSchema,
} from '@hankweave/types';
import { SentinelError } from '../errors.js';
import { isKnownEventType, isPathValidFor } from './condition-paths.js';

/** Which `sentinel.*` events a sentinel reports (codon settings over the sentinel's own). */
export interface ReportFlags {
  lifecycle: boolean;
  errors: boolean;
  outputs: boolean;
  triggers: boolean;
}

/** A sentinel config with its files read and its codon settings merged. */
export interface SentinelDefinition {
  config: SentinelConfig;
  /** The file reference as written, or `inline:<id>`. */
  ref: string;
  source: 'file' | 'inline';
  sourcePath?: string;
  systemPrompt?: string;
  userPrompt: string;
  /** The JSON Schema of structured `object` / `array` output. */
  outputSchema?: Record<string, unknown>;
  report: ReportFlags;
  outputPaths: { logFile?: string; lastValueFile?: string };
}

/** The reference a failed entry is reported under. */
export function entryRef(entry: CodonSentinelEntry): string {
  const config = entry.sentinelConfig as unknown;
  if (typeof config === 'string') return config;
  const id = (config as { id?: unknown } | null)?.id;
  return `inline:${typeof id === 'string' ? id : '?'}`;
}

/**
 * Reads and validates one codon entry. `fileCache` (per codon load) avoids reading a sentinel file
 * twice when two entries name it. Throws {@link SentinelError}.
 */
export async function loadDefinition(
  entry: CodonSentinelEntry,
  hankDir: string,
  fileCache: Map<string, Promise<unknown>>,
): Promise<SentinelDefinition> {
  const ref = entryRef(entry);
  let raw: unknown = entry.sentinelConfig;
  let configDir = hankDir;
  if (typeof entry.sentinelConfig === 'string') {
    const path = resolve(hankDir, entry.sentinelConfig);
    configDir = dirname(path);
    let pending = fileCache.get(path);
    if (!pending) {
      // Only a regular file: a FIFO in its place must not hang the codon that loads it.
      pending = readRegularTextFile(path).then((text) => JSON.parse(text) as unknown);
      fileCache.set(path, pending);
    }
    try {
      raw = await pending;
    } catch (cause) {
      throw new SentinelError(
        'SENTINEL_CONFIG_UNREADABLE',
        // Never the file's content (V8 quotes it): a hank can name any readable file.
        `Sentinel file ${ref} cannot be read as JSON: ${describeJsonError(cause)}`,
        { cause, details: { ref, path } },
      );
    }
  }
  const parsed = sentinelConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new SentinelError('SENTINEL_CONFIG_INVALID', `Sentinel ${ref} is invalid: ${issues}`, {
      cause: parsed.error,
      details: { ref },
    });
  }
  const config = parsed.data;
  checkConditionPaths(config, ref);
  const read = (file: string) => readRef(file, configDir, ref);
  const systemFiles = config.systemPromptFile;
  const systemPrompt =
    systemFiles === undefined
      ? config.systemPromptText
      : (
          await Promise.all((Array.isArray(systemFiles) ? systemFiles : [systemFiles]).map(read))
        ).join('\n\n');
  const userPrompt = config.userPromptFile
    ? await read(config.userPromptFile)
    : (config.userPromptText ?? '');
  const settings = entry.settings;
  return {
    config,
    ref,
    source: typeof entry.sentinelConfig === 'string' ? 'file' : 'inline',
    ...(typeof entry.sentinelConfig === 'string' ? { sourcePath: entry.sentinelConfig } : {}),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    userPrompt,
    ...(await loadOutputSchema(config, read, ref)),
    report: {
      lifecycle: true,
      errors: true,
      outputs: true,
      triggers: false,
      ...defined(config.reportToWebsocket),
      ...defined(settings?.reportToWebsocket),
    },
    outputPaths: {
      ...defined({ logFile: config.output?.file, lastValueFile: config.output?.lastValueFile }),
      ...defined(settings?.outputPaths),
    },
  };
}

function defined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(
    Object.entries(value ?? {}).filter(([, field]) => field !== undefined),
  ) as Partial<T>;
}

async function readRef(file: string, configDir: string, ref: string): Promise<string> {
  const path = resolve(configDir, file);
  try {
    return await readRegularTextFile(path);
  } catch (cause) {
    throw new SentinelError(
      'SENTINEL_PROMPT_UNREADABLE',
      `Sentinel ${ref}: cannot read ${file} (resolved against ${configDir})`,
      { cause, details: { ref, path } },
    );
  }
}

async function loadOutputSchema(
  config: SentinelConfig,
  read: (file: string) => Promise<string>,
  ref: string,
): Promise<{ outputSchema?: Record<string, unknown> }> {
  const structured = config.structuredOutput;
  if (!structured || structured.output === 'enum') return {};
  if (structured.schema) return { outputSchema: structured.schema };
  const file = structured.schemaFile as string;
  if (!file.endsWith('.json')) {
    throw new SentinelError(
      'SENTINEL_SCHEMA_INVALID',
      `Sentinel ${ref}: schemaFile ${file} must be a .json JSON Schema (code is never evaluated)`,
      { details: { ref, file } },
    );
  }
  const text = await read(file);
  try {
    return { outputSchema: JSON.parse(text) as Record<string, unknown> };
  } catch (cause) {
    throw new SentinelError('SENTINEL_SCHEMA_INVALID', `Sentinel ${ref}: ${file} is not JSON`, {
      cause,
      details: { ref, file },
    });
  }
}

/** Every event type name must exist, and every condition path must exist in its event data. */
function checkConditionPaths(config: SentinelConfig, ref: string): void {
  const problems: string[] = [];
  const checkTypes = (types: readonly string[], where: string) => {
    for (const type of types) {
      if (type !== '*' && !isKnownEventType(type)) {
        problems.push(`${where}: unknown event type "${type}"`);
      }
    }
  };
  const checkConditions = (
    conditions: readonly SentinelCondition[] | undefined,
    types: readonly string[],
    where: string,
  ) => {
    for (const [index, condition] of (conditions ?? []).entries()) {
      if (
        !isPathValidFor(
          condition.path,
          types.filter((type) => type === '*' || isKnownEventType(type)),
        )
      ) {
        problems.push(
          `${where}.conditions[${index}].path "${condition.path}" is not a field of the data of ${types.join(' | ')}`,
        );
      }
    }
  };
  const { trigger } = config;
  if (trigger.type === 'event') {
    checkTypes(trigger.on, 'trigger.on');
    checkConditions(trigger.conditions, trigger.on, 'trigger');
  } else {
    checkTypes(trigger.interestFilter.on, 'trigger.interestFilter.on');
    for (const [index, step] of trigger.pattern.entries()) {
      checkTypes([step.type], `trigger.pattern[${index}].type`);
      checkConditions(step.conditions, [step.type], `trigger.pattern[${index}]`);
    }
  }
  if (problems.length > 0) {
    throw new SentinelError(
      'SENTINEL_CONDITION_PATH_INVALID',
      `Sentinel ${ref} (${config.id}): ${problems.join('; ')}`,
      { details: { ref, sentinelId: config.id, problems } },
    );
  }
}
