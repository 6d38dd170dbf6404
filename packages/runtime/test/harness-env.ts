import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDirSync } from '@hankweave/durable-io/testing';
import { type ScriptedModel, startScriptedModel } from '@hankweave/scripted-model';
import type { HankweaveEvent } from '@hankweave/types';
import { type CreateRuntimeOptions, createRuntime, type Runtime } from '../src/index.js';

export const EXAMPLE_DIR = fileURLToPath(new URL('../../../examples/hello-hank/', import.meta.url));

/** A private world for one test: a tmp root, a copy of a hank, a scripted model, an agent env. */
export interface TestWorld {
  root: string;
  hankDir: string;
  dataDir: string;
  baseDir: string;
  model: ScriptedModel;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** The environment that points the real Claude Code at the scripted model, with a private HOME. */
export function agentEnv(root: string): NodeJS.ProcessEnv {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  return {
    ...process.env,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_API_KEY: 'sk-scripted-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    IS_SANDBOX: '1',
  };
}

/** Copies the example hank (or writes `hank`) into a tmp dir and starts the model on `script`. */
export async function makeWorld(
  options: { hank?: unknown; script?: unknown; files?: Record<string, string> } = {},
): Promise<TestWorld> {
  const root = makeTempDirSync('runtime-e2e-').path;
  const hankDir = join(root, 'hank');
  cpSync(EXAMPLE_DIR, hankDir, { recursive: true });
  if (options.hank)
    writeFileSync(join(hankDir, 'hank.json'), JSON.stringify(options.hank, null, 2));
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(hankDir, path, '..'), { recursive: true });
    writeFileSync(join(hankDir, path), content);
  }
  const script =
    options.script ?? JSON.parse(readFileSync(join(hankDir, 'model-script.json'), 'utf8'));
  const model = await startScriptedModel({ script });
  return {
    root,
    hankDir,
    dataDir: join(hankDir, 'data'),
    baseDir: join(root, 'executions'),
    model,
    env: agentEnv(root),
    // Stops the model only: tests read the execution after it. The files go with the file's
    // `afterAll(cleanupTempDirs)` (test/cleanup-temp-dirs.ts, a setup file).
    close: () => model.close(),
  };
}

/** A runtime on the world's hank and model, collecting every event. */
export function runtimeFor(
  world: TestWorld,
  options: Partial<CreateRuntimeOptions> = {},
): { runtime: Runtime; events: HankweaveEvent[] } {
  const events: HankweaveEvent[] = [];
  const runtime = createRuntime({
    hankPath: join(world.hankDir, 'hank.json'),
    dataPath: world.dataDir,
    executionBaseDir: world.baseDir,
    anthropicBaseUrl: world.model.url,
    env: world.env,
    headless: true,
    ...options,
  });
  runtime.on((event) => events.push(event));
  return { runtime, events };
}

/** How many requests the world's model got for codon `id` (its prompt's `TASK_<ID>` marker). */
export const asked = (world: TestWorld, id: string): number =>
  world.model.requests.filter((request) =>
    JSON.stringify(request.body ?? '').includes(`TASK_${id.toUpperCase()}`),
  ).length;

/** Waits until `predicate` holds for the collected events. */
export async function waitForEvent(
  events: HankweaveEvent[],
  predicate: (event: HankweaveEvent) => boolean,
  timeoutMs = 30_000,
): Promise<HankweaveEvent> {
  const started = Date.now();
  for (;;) {
    const found = events.find(predicate);
    if (found) return found;
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `No matching event within ${timeoutMs} ms; saw ${events.map((e) => e.type).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
