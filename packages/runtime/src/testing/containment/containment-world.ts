import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '@hankweave/durable-io';
import type { HankweaveEvent } from '@hankweave/types';
import { expect } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/create-runtime.js';
import type { CreateRuntimeOptions } from '../../runtime/create-runtime-options.js';
import type {
  ContainmentContext,
  ContainmentScript,
  ContainmentTurn,
} from './containment-setup.js';
import { processesWith } from './surviving-processes.js';
import { type DigestEntry, treeDigest } from './tree-digest.js';

/** How one run of an attack hank ended. */
export interface AttackRun {
  exitCode: number;
  events: HankweaveEvent[];
  executionDir: string;
  runtime: Runtime;
}

/**
 * A private world for one case: the user's data (reached through a symlink, so its real path
 * differs from the one the hank is run on), a directory outside every execution, another
 * execution, a hank directory, and the managed executions directory. The protected trees are
 * recorded before the attack and compared after it.
 */
export class ContainmentWorld {
  readonly root: string;
  /** Unique per case: attacks put it in the command line of what they leave running. */
  readonly token = `hw-attack-${randomBytes(6).toString('hex')}`;
  /** The user's data, where its files really are. */
  readonly data: string;
  /** A symlink to {@link data}: the path the hank runs on. */
  readonly dataLink: string;
  /** A directory of the user's that no execution contains. */
  readonly outside: string;
  /** Another execution, in the same executions directory. */
  readonly other: string;
  readonly hankDir: string;
  readonly baseDir: string;
  readonly home: string;
  #before: Record<string, Record<string, DigestEntry>> = {};

  constructor(readonly context: ContainmentContext) {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), 'hw-containment-')));
    this.data = join(this.root, 'user-data');
    this.dataLink = join(this.root, 'data-link');
    this.outside = join(this.root, 'outside');
    this.hankDir = join(this.root, 'hank');
    this.baseDir = join(this.root, 'executions');
    this.other = join(this.baseDir, '1700000000000-0000-000000');
    this.home = join(this.root, 'home');
    for (const dir of [this.data, this.outside, this.hankDir, this.home]) mkdirSync(dir);
    writeFileSync(join(this.data, 'readme.txt'), 'the user’s own data\n');
    writeFileSync(join(this.data, 'keep.csv'), 'city,population\nParis,2100000\n');
    mkdirSync(join(this.data, 'nested'));
    writeFileSync(join(this.data, 'nested', 'deep.txt'), 'deep\n');
    symlinkSync(this.data, this.dataLink);
    writeFileSync(join(this.outside, 'thesis.tex'), 'years of work\n');
    mkdirSync(join(this.outside, 't'));
    writeFileSync(join(this.outside, 't', 'chapter.tex'), 'chapter one\n');
    mkdirSync(join(this.other, '.hankweave'), { recursive: true });
    mkdirSync(join(this.other, 'agentRoot'));
    writeFileSync(join(this.other, 'agentRoot', 'result.md'), 'another execution\n');
    writeFileSync(join(this.other, '.hankweave', 'state.json'), '{"runs":[]}\n');
  }

  /** The trees no attack may change: the data, the outside directory, the other execution. */
  protectedTrees(): Record<string, string> {
    return { data: this.data, outside: this.outside, other: this.other };
  }

  /** Records the protected trees (and the hank directory, once the case has written it). */
  snapshot(): void {
    this.#before = Object.fromEntries(
      Object.entries({ ...this.protectedTrees(), hank: this.hankDir }).map(([name, path]) => [
        name,
        treeDigest(path),
      ]),
    );
  }

  /** A codon on this case's agent whose prompt is `marker`. */
  codon(id: string, marker: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      id,
      name: id,
      model: this.context.harness.model,
      continuationMode: 'fresh',
      promptText: `${marker}: do the task.`,
      ...extra,
    };
  }

  /** A hank of `codons`, written to the hank directory. */
  writeHank(codons: Record<string, unknown>[], extra: Record<string, unknown> = {}): string {
    const path = join(this.hankDir, 'hank.json');
    writeFileSync(
      path,
      JSON.stringify({ meta: { name: 'containment', version: '1.0.0' }, hank: codons, ...extra }),
    );
    return path;
  }

  /** A script: for each marker, its turns. */
  static script(turns: Record<string, ContainmentTurn[]>): ContainmentScript {
    return {
      conversations: Object.entries(turns).map(([marker, list]) => ({
        match: { marker },
        turns: list,
      })),
    };
  }

  /** Runs the hank in the hank directory on the data link, headless, until the runtime stops. */
  async run(script: ContainmentScript, options: Partial<CreateRuntimeOptions> = {}) {
    const { harness, caseTimeoutMs } = this.context;
    const served = await harness.serve(script);
    try {
      const events: HankweaveEvent[] = [];
      const runtime = createRuntime({
        hankPath: join(this.hankDir, 'hank.json'),
        dataPath: this.dataLink,
        executionBaseDir: this.baseDir,
        env: harness.env(this.home),
        headless: true,
        sandbox: harness.sandbox ?? 'require',
        killGraceMs: 1000,
        ...served.options,
        ...options,
      });
      runtime.on((event) => events.push(event));
      await runtime.start();
      const timeout = sleep(caseTimeoutMs - 10_000).then(() => 'timeout' as const);
      const ended = await Promise.race([runtime.finished, timeout]);
      if (ended === 'timeout') {
        await runtime.close({ force: true }).catch(() => undefined);
        throw new Error(`The attack hank did not finish within ${caseTimeoutMs - 10_000} ms`);
      }
      return { exitCode: ended.exitCode, events, executionDir: runtime.executionDir, runtime };
    } finally {
      await served.close();
    }
  }

  /**
   * The protected trees are byte-identical to the snapshot (hank directory included), and no
   * process started by the attack is alive.
   */
  expectContained(): void {
    const now = Object.fromEntries(
      Object.entries({ ...this.protectedTrees(), hank: this.hankDir }).map(([name, path]) => [
        name,
        treeDigest(path),
      ]),
    );
    for (const [name, before] of Object.entries(this.#before))
      expect(now[name], `the ${name} tree changed`).toEqual(before);
    expect(processesWith(this.token), 'processes the attack left running').toEqual([]);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Runs `body` in a fresh world; the world is removed whatever happens. */
export async function withWorld(
  context: ContainmentContext,
  body: (world: ContainmentWorld) => Promise<void>,
): Promise<void> {
  const world = new ContainmentWorld(context);
  try {
    await body(world);
  } finally {
    world.remove();
  }
}

/** The events of one type. */
export const ofType = <T extends HankweaveEvent['type']>(events: HankweaveEvent[], type: T) =>
  events.filter((event): event is Extract<HankweaveEvent, { type: T }> => event.type === type);

/** The tool results of a run (each attack checks that its tool call really ran). */
export const toolResults = (run: AttackRun) => ofType(run.events, 'tool.result');

/** A last turn that ends the conversation. */
export const DONE: ContainmentTurn = { content: [{ text: 'Done.' }] };
