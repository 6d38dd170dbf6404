import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorld, runtimeFor, type TestWorld } from '../../test/harness-env.js';

// The user's data is never touched (issue 20, item 1), on the real agent and the scripted model:
// the agent's file tools are denied the data link (Claude Code also applies the deny rules to
// shell redirections it can parse), and any other change to the data source (a shell command the
// rules cannot see, a rig command) fails the codon, naming the paths; a copied data source is
// restored. These cases run without the OS sandbox (`sandbox: 'off'`): the guard is the second
// line behind it, and the only one where no sandbox exists; with the sandbox the writes fail
// outright (the containment suite, `src/containment/`).

const codon = (extra: Record<string, unknown> = {}) => ({
  id: 'work',
  name: 'Work',
  model: 'sonnet',
  continuationMode: 'fresh',
  onFailure: 'abort',
  promptText: 'TASK_WORK: look at the data.',
  ...extra,
});
const hank = (extra: Record<string, unknown> = {}) => ({
  meta: { name: 'data-guard', version: '1.0.0' },
  hank: [codon(extra)],
});
const turns = (...list: unknown[]) => ({
  conversations: [{ match: { marker: 'TASK_WORK' }, turns: list }],
});
const done = { content: [{ text: 'Done.' }] };
// If the agent were not stopped, this second shell call would leave a file after 8 seconds.
const wouldOutliveTheStop = { content: [{ bash: 'sleep 8 && touch still-running.txt' }] };

const errorsWithCode = (events: HankweaveEvent[], code: string) =>
  events.filter(
    (event): event is Extract<HankweaveEvent, { type: 'error' }> =>
      event.type === 'error' && event.data.code === code,
  );

let world: TestWorld | undefined;
let codonRecord: () => unknown = () => undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function run(options: {
  hank: unknown;
  script: unknown;
  copyData?: boolean;
  /** Watch the data source's file events from its first entry (fileWatch.minFiles 0). */
  watchData?: boolean;
}): Promise<{ events: HankweaveEvent[]; exitCode: number; agentRoot: string; ms: number }> {
  world = await makeWorld({ hank: options.hank, script: options.script });
  const { runtime, events } = runtimeFor(world, {
    sandbox: 'off',
    ...(options.copyData ? { copyData: true } : {}),
    ...(options.watchData ? { fileWatch: { minFiles: 0 } } : {}),
  });
  const started = Date.now();
  await runtime.start();
  const { exitCode } = await runtime.finished;
  codonRecord = () => runtime.getState().runs[0]?.codons[0];
  return {
    events,
    exitCode,
    agentRoot: join(runtime.executionDir, 'agentRoot'),
    ms: Date.now() - started,
  };
}

const dataFiles = () => readdirSync((world as TestWorld).dataDir).sort();

describe('the data source with the real agent', () => {
  it('denies a Write into read_only_data_source, even with permissions bypassed as root', async () => {
    const { events, exitCode } = await run({
      hank: hank(),
      script: turns(
        { content: [{ write: { path: 'read_only_data_source/agent-wrote.txt', content: 'x' } }] },
        // The same rules stop a shell redirection Claude Code can read the target of.
        { content: [{ bash: 'echo x > read_only_data_source/bash-wrote.txt' }] },
        { content: [{ write: { path: 'notes.txt', content: 'fine' } }] },
        done,
      ),
    });
    expect(dataFiles()).toEqual(['cities.csv', 'readme.txt']);
    const results = events.filter((event) => event.type === 'tool.result');
    expect(results.map((event) => [event.data.toolName, event.data.isError])).toEqual([
      ['Write', true],
      ['Bash', true],
      ['Write', false],
    ]);
    expect(results[0]?.data.result).toContain('denied by your permission settings');
    expect(exitCode).toBe(0);
    expect(errorsWithCode(events, 'DATA_SOURCE_MODIFIED')).toEqual([]);
  }, 60_000);

  it('fails the codon when a shell command writes into the data, naming the path', async () => {
    const { events, exitCode, agentRoot, ms } = await run({
      hank: hank(),
      script: turns(
        // Claude Code refuses a plain `echo x > read_only_data_source/…` by the deny rule; a
        // nested shell hides the path from it, and only the data guard sees the write.
        { content: [{ bash: "sh -c 'echo x > read_only_data_source/shell.txt'" }] },
        wouldOutliveTheStop,
        done,
      ),
    });
    expect(exitCode).not.toBe(0);
    const [error] = errorsWithCode(events, 'DATA_SOURCE_MODIFIED');
    expect(error?.data).toMatchObject({
      codon: 'work',
      context: { paths: ['read_only_data_source/shell.txt'], count: 1, restored: false },
    });
    expect(error?.data.message).toContain('read_only_data_source/shell.txt (created)');
    const completed = events.find((event) => event.type === 'codon.completed');
    expect(completed?.data).toMatchObject({
      codonId: 'work',
      success: false,
      failureReason: { type: 'unknown', retriable: false },
    });
    expect(completed?.data.failureReason?.message).toContain(
      "hankweave never writes there; the agent or a rig command did. Check the hank's rig commands and prompts",
    );
    // The agent was stopped at the first change: its next shell call never finished.
    expect(ms).toBeLessThan(8000);
    expect(existsSync(join(agentRoot, 'still-running.txt'))).toBe(false);
    // A symlinked data source is the user's own data: the change is there, and the message says so.
    expect(dataFiles()).toContain('shell.txt');
    expect(error?.data.message).toContain('links to your own data');
  }, 60_000);

  it('restores a copied data source after a shell command changed it', async () => {
    const { events, exitCode, agentRoot } = await run({
      hank: hank(),
      copyData: true,
      script: turns(
        {
          content: [
            {
              bash: "sh -c 'echo x > read_only_data_source/shell.txt; echo changed > read_only_data_source/readme.txt'",
            },
          ],
        },
        wouldOutliveTheStop,
        done,
      ),
    });
    expect(exitCode).not.toBe(0);
    const [error] = errorsWithCode(events, 'DATA_SOURCE_MODIFIED');
    expect(error?.data).toMatchObject({
      context: {
        paths: ['read_only_data_source/readme.txt', 'read_only_data_source/shell.txt'],
        count: 2,
        restored: true,
      },
    });
    expect(error?.data.message).toContain('was restored from the original data');
    const copy = join(agentRoot, 'read_only_data_source');
    expect(existsSync(join(copy, 'shell.txt'))).toBe(false);
    const original = readFileSync(join((world as TestWorld).dataDir, 'readme.txt'), 'utf8');
    expect(readFileSync(join(copy, 'readme.txt'), 'utf8')).toBe(original);
    expect(original).not.toBe('changed\n');
    expect(dataFiles()).toEqual(['cities.csv', 'readme.txt']);
  }, 60_000);

  it('fails the codon at rig time when a rig command writes into the data', async () => {
    const { events, exitCode } = await run({
      hank: hank({
        rigSetup: [
          { type: 'command', command: { run: 'echo x > read_only_data_source/rig.txt' } },
          { type: 'command', command: { run: 'touch after-the-rig.txt' } },
        ],
      }),
      script: turns(done),
    });
    expect(exitCode).not.toBe(0);
    const [error] = errorsWithCode(events, 'DATA_SOURCE_MODIFIED');
    expect(error?.data.context).toMatchObject({ paths: ['read_only_data_source/rig.txt'] });
    expect(error?.data.message).toContain("after rig operation 1 (command 'echo x >");
    expect(codonRecord()).toMatchObject({
      status: 'failed',
      failedDuring: 'preparing',
      failureReason: { type: 'unknown', retriable: false },
    });
    // The agent never started.
    expect(events.some((event) => event.type === 'codon.started')).toBe(false);
  }, 60_000);
});

// A big data source (fileWatch.minFiles entries or more; here from the first) is watched: the
// check after a tool call looks at its file events and walks only when they report a change, and
// the check when the session ends always walks (issue 39). The same guarantees hold.
describe('a watched data source with the real agent', () => {
  const serverLog = (agentRoot: string) =>
    readFileSync(join(agentRoot, '..', '.hankweave/logs/server.log'), 'utf8');
  const watching = (agentRoot: string) =>
    /Watching the data source's file events: \d+ entries/.test(serverLog(agentRoot));
  const walks = (agentRoot: string) => serverLog(agentRoot).match(/Data source check walked: .*/g);

  it('stops the agent after the tool call whose change the events report, naming the path', async () => {
    const { events, exitCode, agentRoot, ms } = await run({
      hank: hank(),
      watchData: true,
      script: turns(
        { content: [{ bash: 'ls read_only_data_source' }] },
        { content: [{ bash: "sh -c 'echo x > read_only_data_source/shell.txt'" }] },
        // The events of a write are in well within this call: its check finds them.
        { content: [{ bash: 'sleep 1' }] },
        wouldOutliveTheStop,
        done,
      ),
    });
    expect(watching(agentRoot)).toBe(true);
    expect(walks(agentRoot)).toContain(
      'Data source check walked: its file events reported a change',
    );
    expect(exitCode).not.toBe(0);
    const [error] = errorsWithCode(events, 'DATA_SOURCE_MODIFIED');
    expect(error?.data).toMatchObject({
      codon: 'work',
      context: { paths: ['read_only_data_source/shell.txt'], count: 1, restored: false },
    });
    expect(error?.data.message).toMatch(/after the Bash tool call/);
    expect(ms).toBeLessThan(8000);
    expect(existsSync(join(agentRoot, 'still-running.txt'))).toBe(false);
  }, 60_000);

  it('finds a change of the last moment by the walk when the session ends', async () => {
    const { events, exitCode, agentRoot } = await run({
      hank: hank(),
      watchData: true,
      copyData: true,
      script: turns(
        { content: [{ bash: 'ls read_only_data_source' }] },
        // Changed, then the agent ends at once: whether or not the events of the write are in
        // by the check after this call, the walk when the session ends sees it.
        { content: [{ bash: "sh -c 'echo changed > read_only_data_source/readme.txt'" }] },
        done,
      ),
    });
    expect(watching(agentRoot)).toBe(true);
    expect(exitCode).not.toBe(0);
    const [error] = errorsWithCode(events, 'DATA_SOURCE_MODIFIED');
    expect(error?.data).toMatchObject({
      context: { paths: ['read_only_data_source/readme.txt'], count: 1, restored: true },
    });
    const original = readFileSync(join((world as TestWorld).dataDir, 'readme.txt'), 'utf8');
    expect(original).not.toBe('changed\n');
  }, 60_000);

  it('passes a codon that leaves the data alone, through many tool calls', async () => {
    const calls = Array.from({ length: 6 }, (_, n) => ({
      content: [{ bash: `cat read_only_data_source/cities.csv > copy-${n}.csv` }],
    }));
    const { events, exitCode, agentRoot } = await run({
      hank: hank(),
      watchData: true,
      script: turns(...calls, done),
    });
    expect(watching(agentRoot)).toBe(true);
    expect(exitCode).toBe(0);
    expect(errorsWithCode(events, 'DATA_SOURCE_MODIFIED')).toEqual([]);
    expect(existsSync(join(agentRoot, 'copy-5.csv'))).toBe(true);
    // Six checks after tool calls: at most the first walks (the watcher starts with the codon's
    // baseline, in the background), the others are answered by the events; none reported a change.
    const answered = serverLog(agentRoot).match(/Data source check: no file events since/g);
    expect(answered?.length).toBeGreaterThanOrEqual(5);
    expect((walks(agentRoot) ?? []).length).toBeLessThanOrEqual(1);
    expect(walks(agentRoot) ?? []).not.toContain(
      'Data source check walked: its file events reported a change',
    );
  }, 60_000);
});
