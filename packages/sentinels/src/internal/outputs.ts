import { dirname, join, resolve } from 'node:path';
import { createDirectory, type Fs, isInside, writeFileAtomic } from '@hankweave/durable-io';
import { SentinelError } from '../errors.js';
import type { SentinelLogger } from '../options.js';
import { appendDurably, repairTornTail } from './durable-files.js';

/** Where one sentinel writes, decided at load (settings > config > automatic). */
export interface OutputTargets {
  logFile: string;
  lastValueFile?: string;
  /** `text` appends joined text, `jsonl` and `structured` append one JSON line per output. */
  mode: 'text' | 'jsonl' | 'structured';
}

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
    if (!isInside(executionDir, path) && !isInside(input.agentRoot, path)) {
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

/**
 * Appends outputs to the log and replaces the last-value file, each durably: `write()` resolves
 * only once the output is on disk, so the `sentinel.output` event that follows never reports an
 * output a crash could still lose. The last-value file is replaced atomically (old or new, always
 * whole). A log append is not atomic: a crash can leave part of one record at the end, after every
 * earlier record; the writer repairs such a tail before its next append (at load, and after a
 * failed write), see {@link repairTornTail}. Readers of a log should skip a last line that does
 * not end with a newline.
 */
export class OutputWriter {
  // A failed append may have left part of its record: repair before the next one.
  private tailSuspect = true;

  constructor(
    private readonly targets: OutputTargets,
    private readonly sentinelId: string,
    private readonly joinString: string,
    private readonly fs: Fs,
    private readonly logger: SentinelLogger,
  ) {}

  /**
   * Creates the log file empty at load, so a sentinel that never fires still leaves its file; a
   * log named in the config outlives runs, so a tail torn by a crashed run is repaired here.
   */
  async create(): Promise<void> {
    await createDirectory(dirname(this.targets.logFile), { fs: this.fs });
    await this.repairTail();
    await appendDurably(this.fs, this.targets.logFile, '');
  }

  /** Writes one output durably. Throws the file-system error (the runner reports it). */
  async write(content: unknown, triggerNumber: number, timestamp: string): Promise<void> {
    const { logFile, lastValueFile, mode } = this.targets;
    try {
      await createDirectory(dirname(logFile), { fs: this.fs });
      await this.repairTail();
      await appendDurably(this.fs, logFile, await this.record(content, triggerNumber, timestamp));
    } catch (error) {
      this.tailSuspect = true;
      throw error;
    }
    if (lastValueFile) {
      await writeFileAtomic(
        lastValueFile,
        mode === 'structured' ? `${JSON.stringify(content, null, 2)}\n` : String(content),
        { fs: this.fs, createParents: true },
      );
    }
  }

  private async record(content: unknown, triggerNumber: number, timestamp: string) {
    const { logFile, mode } = this.targets;
    if (mode === 'text') {
      const size = await this.fs.stat(logFile).then(
        (s) => s.size,
        () => 0,
      );
      return `${size > 0 ? this.joinString : ''}${String(content)}\n`;
    }
    const record =
      mode === 'jsonl'
        ? { text: content, timestamp, sentinelId: this.sentinelId }
        : { timestamp, sentinelId: this.sentinelId, triggerNumber, output: content };
    return `${JSON.stringify(record)}\n`;
  }

  private async repairTail(): Promise<void> {
    if (!this.tailSuspect) return;
    const { logFile, mode } = this.targets;
    // Text records may span lines: keep the fragment rather than guess where it started.
    const done = await repairTornTail(this.fs, logFile, mode === 'text' ? 'terminate' : 'cut');
    if (done) {
      this.logger.warn(`Sentinel ${this.sentinelId}: ${logFile} ${done}`, {
        sentinelId: this.sentinelId,
        path: logFile,
      });
    }
    this.tailSuspect = false;
  }
}

/** `joinString` with the escapes `\n \t \r \\` turned into their characters. */
export function unescapeJoin(value: string | undefined): string {
  if (value === undefined) return '\n---\n';
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
  return value.replace(/\\([ntr\\])/g, (_, char: string) => map[char] ?? char);
}
