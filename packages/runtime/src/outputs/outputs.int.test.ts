import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@hankweave/durable-io/testing';
import { type FakeAgentScript, FakeHarness } from '@hankweave/harness/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../index.js';

// outputFiles end to end (reference §1.6) on the FakeHarness: the files come from rig commands and
// beforeCopy commands, which run for real; the agent is scripted.

let dir: TempDir;
let out: string;

beforeEach(async () => {
  dir = await makeTempDir('outputs-e2e-');
  out = join(dir.path, 'out');
  mkdirSync(join(dir.path, 'data'));
  writeFileSync(join(dir.path, 'data', 'notes.txt'), 'user data');
});
afterEach(() => dir.cleanup());

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `Do ${id}.`,
  ...extra,
});
/** A rig command that writes `path` (relative to agentRoot) with `content`. */
const makes = (path: string, content: string) => ({
  type: 'command',
  command: { run: `mkdir -p "$(dirname '${path}')" && printf '%s' '${content}' > '${path}'` },
});

async function runHank(
  codons: Record<string, unknown>[],
  options: {
    outputDirectory?: string;
    overwriteOutput?: boolean;
    failing?: string[];
    env?: NodeJS.ProcessEnv;
  } = {},
) {
  const failing = new Set(options.failing ?? []);
  const harness = new FakeHarness({
    script: (start): FakeAgentScript =>
      failing.has(start.codonId)
        ? { scenario: { turns: [{ text: 'No.' }], result: { error: 'agent gave up' } } }
        : { scenario: { turns: [{ text: 'Done.' }] } },
  });
  const events: HankweaveEvent[] = [];
  const runtime = createRuntime({
    hank: { meta: { name: 'outputs', version: '1.0.0' }, hank: codons },
    hankDir: dir.path,
    dataPath: join(dir.path, 'data'),
    executionBaseDir: join(dir.path, 'executions'),
    startNew: true,
    harness,
    headless: true,
    killGraceMs: 200,
    ...(options.env ? { env: options.env } : {}),
    ...(options.outputDirectory !== undefined ? { outputDirectory: options.outputDirectory } : {}),
    ...(options.overwriteOutput ? { overwriteOutput: true } : {}),
  });
  runtime.on((event) => events.push(event));
  await runtime.start();
  const exit = await runtime.finished;
  return { exit, events, runtime, started: harness.starts.map((start) => start.codonId) };
}

const infos = (events: HankweaveEvent[]) =>
  events.filter((event) => event.type === 'info').map((event) => event.data.message as string);
const files = (root: string): string[] =>
  existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
        .sort()
    : [];
const runStatus = (events: HankweaveEvent[]) =>
  events
    .filter((event) => event.type === 'state.transition')
    .map((event) => event.data.transitionType)
    .filter((type) => type === 'RunCompleted' || type === 'RunFailed');

describe('outputFiles', () => {
  it('runs beforeCopy first (execution dir, codon env), then copies the globs, once the codon completed', async () => {
    const { exit, events, runtime } = await runHank(
      [
        codon('write', {
          env: { REPORT_TITLE: 'quarterly' },
          rigSetup: [makes('report/survey.md', '# survey'), makes('report/raw.log', 'log')],
          outputFiles: [
            {
              beforeCopy: [
                // cwd is the execution directory (as the original): write into agentRoot from there.
                { type: 'command', command: { run: 'pwd > agentRoot/report/where.txt' } },
                {
                  type: 'command',
                  command: {
                    run: 'printf "%s" "$REPORT_TITLE" > report/title.md',
                    workingDirectory: 'project',
                  },
                },
              ],
              copy: ['report/*.md', 'report/where.txt', 'nothing/*.pdf'],
            },
          ],
        }),
        codon('after'),
      ],
      { outputDirectory: out },
    );
    expect(exit.exitCode).toBe(0);
    expect(files(out)).toEqual(['report/survey.md', 'report/title.md', 'report/where.txt']);
    expect(readFileSync(join(out, 'report/title.md'), 'utf8')).toBe('quarterly');
    expect(readFileSync(join(out, 'report/where.txt'), 'utf8').trim()).toBe(runtime.executionDir);
    const messages = infos(events);
    expect(messages).toContain('outputFiles glob "nothing/*.pdf" of codon write matched no file');
    const copiedAt = events.findIndex(
      (event) => event.type === 'info' && String(event.data.message).startsWith('Copied 3 output'),
    );
    // After the terminal transition (the codon is completed in state), before codon.completed.
    const terminalAt = events.findIndex(
      (event) =>
        event.type === 'state.transition' &&
        event.data.transitionType === 'CodonTransitioned' &&
        event.data.codonId === 'write' &&
        (event.data.transition as { data: { to: string } }).data.to === 'completed',
    );
    const completedAt = events.findIndex(
      (event) => event.type === 'codon.completed' && event.data.codonId === 'write',
    );
    expect(terminalAt).toBeGreaterThan(-1);
    expect(copiedAt).toBeGreaterThan(terminalAt);
    expect(copiedAt).toBeLessThan(completedAt);
  });

  it('renames on conflicts when run twice into the same directory, and lists the renames', async () => {
    const hank = [
      codon('write', {
        rigSetup: [makes('a.txt', 'A'), makes('deep/b.md', 'B')],
        outputFiles: [{ copy: ['a.txt', 'deep/'] }],
      }),
    ];
    const first = await runHank(hank, { outputDirectory: out });
    expect(first.exit.exitCode).toBe(0);
    expect(files(out)).toEqual(['a.txt', 'deep/b.md']);
    const second = await runHank(hank, { outputDirectory: out });
    expect(second.exit.exitCode).toBe(0);
    expect(infos(second.events).some((message) => message.includes('is not empty'))).toBe(true);
    const renames = second.events.find(
      (event) =>
        event.type === 'info' &&
        Array.isArray(event.data.details) &&
        event.data.message.includes('renamed'),
    );
    const details = renames?.data.details as { original: string; resolved: string }[];
    expect(details.map((entry) => entry.original)).toEqual(['a.txt', 'deep/b.md']);
    expect(details[0]?.resolved).toMatch(/^a_1_\d+\.txt$/);
    expect(details[1]?.resolved).toMatch(/^deep\/b_1_\d+\.md$/);
    expect(files(out)).toEqual(
      ['a.txt', 'deep/b.md', ...details.map((entry) => entry.resolved)].sort(),
    );
    for (const { resolved } of details) expect(existsSync(join(out, resolved))).toBe(true);
  });

  it('overwriteOutput replaces files of the same name', async () => {
    mkdirSync(out);
    writeFileSync(join(out, 'a.txt'), 'old');
    const { exit, events } = await runHank(
      [codon('write', { rigSetup: [makes('a.txt', 'new')], outputFiles: [{ copy: ['a.txt'] }] })],
      { outputDirectory: out, overwriteOutput: true },
    );
    expect(exit.exitCode).toBe(0);
    expect(files(out)).toEqual(['a.txt']);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('new');
    expect(
      events.some(
        (event) =>
          event.type === 'info' && event.data.details && event.data.message.includes('renamed'),
      ),
    ).toBe(false);
  });

  it('a failing beforeCopy fails the run with exit code 1 and copies nothing of that item', async () => {
    const { exit, events, started, runtime } = await runHank(
      [
        codon('write', {
          rigSetup: [makes('a.txt', 'A')],
          outputFiles: [
            {
              beforeCopy: [
                { type: 'command', command: { run: 'exit 3' }, allowFailure: true },
                { type: 'command', command: { run: 'echo broken >&2; exit 7' } },
              ],
              copy: ['a.txt'],
            },
          ],
        }),
        codon('never'),
      ],
      { outputDirectory: out },
    );
    expect(exit.exitCode).toBe(1);
    expect(started).toEqual(['write']);
    expect(runStatus(events)).toEqual(['RunFailed']);
    expect(files(out)).toEqual([]);
    // The codon stays completed; the run fails after codon.completed.
    expect(runtime.getState().runs[0]?.codons[0]?.status).toBe('completed');
    const errorAt = events.findIndex((event) => event.type === 'error');
    expect(errorAt).toBeGreaterThan(events.findIndex((event) => event.type === 'codon.completed'));
    const error = events[errorAt];
    expect(error?.data).toMatchObject({
      fatal: true,
      codon: 'write',
      context: { stage: 'beforeCopy', command: 'echo broken >&2; exit 7', outputIndex: 0 },
    });
    expect(infos(events).some((message) => message.includes('failed (allowFailure)'))).toBe(true);
  });

  it('a failing copy fails the run with exit code 1, naming the file', async () => {
    mkdirSync(out);
    writeFileSync(join(out, 'report'), 'a file where the report directory must go');
    const { exit, events, started } = await runHank(
      [
        codon('write', {
          rigSetup: [makes('report/a.md', 'A')],
          outputFiles: [{ copy: ['report/a.md'] }],
        }),
        codon('never'),
      ],
      { outputDirectory: out },
    );
    expect(exit.exitCode).toBe(1);
    expect(started).toEqual(['write']);
    expect(runStatus(events)).toEqual(['RunFailed']);
    expect(events.find((event) => event.type === 'error')?.data).toMatchObject({
      codon: 'write',
      context: { stage: 'copy', file: 'report/a.md' },
    });
  });

  it('copies nothing for a failed codon', async () => {
    const { exit, started } = await runHank(
      [
        codon('broken', {
          onFailure: 'ignore',
          rigSetup: [makes('broken.txt', 'x')],
          outputFiles: [
            {
              beforeCopy: [{ type: 'command', command: { run: 'touch agentRoot/ran.txt' } }],
              copy: ['*.txt'],
            },
          ],
        }),
        codon('fine', { rigSetup: [makes('fine.md', 'y')], outputFiles: [{ copy: ['*.md'] }] }),
      ],
      { outputDirectory: out, failing: ['broken'] },
    );
    expect(exit.exitCode).toBe(0);
    expect(started).toEqual(['broken', 'fine']);
    expect(files(out)).toEqual(['fine.md']);
  });

  it('copies before archiveOnSuccess moves the files away (reference §5.5 step 12)', async () => {
    const { exit, runtime } = await runHank(
      [
        codon('write', {
          rigSetup: [makes('draft.md', 'draft')],
          archiveOnSuccess: ['draft.md'],
          outputFiles: [{ copy: ['draft.md'] }],
        }),
      ],
      { outputDirectory: out },
    );
    expect(exit.exitCode).toBe(0);
    expect(files(out)).toEqual(['draft.md']);
    expect(existsSync(join(runtime.executionDir, 'rigArchive/write/draft.md'))).toBe(true);
  });

  it('without an output directory nothing is copied and the start says so for each codon', async () => {
    const { exit, events } = await runHank([
      codon('write', { rigSetup: [makes('a.txt', 'A')], outputFiles: [{ copy: ['a.txt'] }] }),
      {
        type: 'loop',
        id: 'loop',
        name: 'Loop',
        terminateOn: { type: 'iterationLimit', limit: 1 },
        codons: [codon('inner', { outputFiles: [{ copy: ['*.md'] }] })],
      },
      codon('plain'),
    ]);
    expect(exit.exitCode).toBe(0);
    const notices = infos(events).filter((message) => message.includes('are not copied'));
    expect(notices).toEqual([
      'outputFiles of codon write are not copied: no output directory (-o/--output, or the outputDirectory option)',
      'outputFiles of codon inner are not copied: no output directory (-o/--output, or the outputDirectory option)',
    ]);
    expect(infos(events).some((message) => message.startsWith('Copied'))).toBe(false);
  });
});
