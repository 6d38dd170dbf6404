import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { SentinelError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';

/** Where one sentinel writes, decided at load (settings > config > automatic). */
export interface OutputTargets {
  logFile: string;
  lastValueFile?: string;
  /** `text` appends joined text, `jsonl` and `structured` append one JSON line per output. */
  mode: 'text' | 'jsonl' | 'structured';
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Resolves a sentinel's output files. A bare file name goes in the sentinel's output directory; a
 * path with `/` resolves against agentRoot; either must stay inside the execution directory or
 * agentRoot. Throws `SENTINEL_OUTPUT_PATH_INVALID`.
 */
export function resolveOutputTargets(input: {
  hankweaveDir: string;
  agentRoot: string;
  sentinelId: string;
  codonId: string;
  loadedAtMs: number;
  mode: OutputTargets['mode'];
  logFile?: string;
  lastValueFile?: string;
}): OutputTargets {
  const outputDir = join(input.hankweaveDir, 'sentinels', 'outputs', input.sentinelId);
  const executionDir = dirname(input.hankweaveDir);
  const place = (name: string, what: string): string => {
    const path = name.includes('/') ? resolve(input.agentRoot, name) : join(outputDir, name);
    if (!inside(executionDir, path) && !inside(input.agentRoot, path)) {
      throw new SentinelError(
        'SENTINEL_OUTPUT_PATH_INVALID',
        `Sentinel ${input.sentinelId}: ${what} ${name} escapes the execution directory and agentRoot`,
        { details: { sentinelId: input.sentinelId, path } },
      );
    }
    return path;
  };
  const extension = input.mode === 'text' ? 'md' : 'ndjson';
  const logFile = input.logFile
    ? place(input.logFile, 'logFile')
    : join(outputDir, `${input.sentinelId}-${input.codonId}-${input.loadedAtMs}.${extension}`);
  if (input.mode === 'structured' && !/\.(ndjson|jsonl)$/.test(logFile)) {
    throw new SentinelError(
      'SENTINEL_OUTPUT_PATH_INVALID',
      `Sentinel ${input.sentinelId}: structured output needs a .ndjson or .jsonl log file`,
      { details: { sentinelId: input.sentinelId, path: logFile } },
    );
  }
  const lastValueFile = input.lastValueFile
    ? place(input.lastValueFile, 'lastValueFile')
    : undefined;
  if (input.mode === 'structured' && lastValueFile && !lastValueFile.endsWith('.json')) {
    throw new SentinelError(
      'SENTINEL_OUTPUT_PATH_INVALID',
      `Sentinel ${input.sentinelId}: structured output needs a .json lastValueFile`,
      { details: { sentinelId: input.sentinelId, path: lastValueFile } },
    );
  }
  return { logFile, mode: input.mode, ...(lastValueFile ? { lastValueFile } : {}) };
}

/** Appends outputs to the log and replaces the last-value file. */
export class OutputWriter {
  constructor(
    private readonly targets: OutputTargets,
    private readonly sentinelId: string,
    private readonly joinString: string,
  ) {}

  /** Creates the log file empty at load, so a sentinel that never fires still leaves its file. */
  async create(): Promise<void> {
    await mkdir(dirname(this.targets.logFile), { recursive: true });
    await writeFile(this.targets.logFile, '', { flag: 'a' });
  }

  /** Writes one output. Throws the file-system error (the runner reports it). */
  async write(content: unknown, triggerNumber: number, timestamp: string): Promise<void> {
    const { logFile, lastValueFile, mode } = this.targets;
    await mkdir(dirname(logFile), { recursive: true });
    if (mode === 'text') {
      const size = await stat(logFile).then(
        (s) => s.size,
        () => 0,
      );
      await appendFile(logFile, `${size > 0 ? this.joinString : ''}${String(content)}\n`);
    } else {
      const record =
        mode === 'jsonl'
          ? { text: content, timestamp, sentinelId: this.sentinelId }
          : { timestamp, sentinelId: this.sentinelId, triggerNumber, output: content };
      await appendFile(logFile, `${JSON.stringify(record)}\n`);
    }
    if (lastValueFile) {
      await writeFileAtomic(
        lastValueFile,
        mode === 'structured' ? `${JSON.stringify(content, null, 2)}\n` : String(content),
      );
    }
  }
}

/** `joinString` with the escapes `\n \t \r \\` turned into their characters. */
export function unescapeJoin(value: string | undefined): string {
  if (value === undefined) return '\n---\n';
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
  return value.replace(/\\([ntr\\])/g, (_, char: string) => map[char] ?? char);
}
