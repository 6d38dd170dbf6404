import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CheckpointEngine,
  type CheckpointEngineOptions,
  type CheckpointInput,
} from '../src/index.js';
import { runNativeGit } from '../src/testing.js';

/** A throwaway execution directory with an agentRoot and helpers to shape its files. */
export interface Execution {
  exec: string;
  root: string;
  write(path: string, content: string | Buffer, mode?: number): void;
  link(path: string, target: string): void;
  remove(path: string): void;
  open(options?: Partial<CheckpointEngineOptions>): Promise<CheckpointEngine>;
  git(...args: string[]): string;
  cleanup(): void;
}

const executions: Execution[] = [];

/** Creates an execution dir under os.tmpdir(); `cleanupExecutions()` in afterEach removes it. */
export function makeExecution(): Execution {
  const exec = mkdtempSync(join(tmpdir(), 'hankweave-cp-test-'));
  const root = join(exec, 'agentRoot');
  mkdirSync(root, { recursive: true });
  const engines: CheckpointEngine[] = [];
  const execution: Execution = {
    exec,
    root,
    write(path, content, mode) {
      const full = join(root, path);
      mkdirSync(dirname(full), { recursive: true });
      try {
        unlinkSync(full);
      } catch {}
      writeFileSync(full, content);
      if (mode !== undefined) chmodSync(full, mode);
    },
    link(path, target) {
      const full = join(root, path);
      mkdirSync(dirname(full), { recursive: true });
      rmSync(full, { force: true });
      symlinkSync(target, full);
    },
    remove(path) {
      rmSync(join(root, path), { recursive: true, force: true });
    },
    async open(options = {}) {
      const engine = await CheckpointEngine.open({ executionDir: exec, ...options });
      engines.push(engine);
      return engine;
    },
    git(...args) {
      return runNativeGit(exec, args).stdout;
    },
    cleanup() {
      for (const engine of engines) void engine.close().catch(() => undefined);
      rmSync(exec, { recursive: true, force: true });
    },
  };
  executions.push(execution);
  return execution;
}

/** Removes every execution made by this test file. */
export function cleanupExecutions(): void {
  for (const execution of executions.splice(0)) execution.cleanup();
}

let counter = 0;
/** A checkpoint input with sensible defaults. */
export function input(
  files: readonly string[],
  overrides: Partial<CheckpointInput> = {},
): CheckpointInput {
  counter++;
  return {
    type: 'completed',
    codonId: `codon-${counter}`,
    codonName: `Codon ${counter}`,
    runId: 'run1',
    durationMs: 10,
    files,
    ...overrides,
  };
}
