import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeParallelHank } from '../../cli/test/parallel-hank.js';
import {
  createSandbox,
  executionDirOf,
  executionNames,
  runCli,
  type Sandbox,
  startCli,
} from './cli.js';
import {
  changedFiles,
  codonEvents,
  executionCost,
  type FullRunJson,
  fullState,
  promptOf,
  recordedCheckpoints,
  runReason,
  type StateJson,
  stoppedStatus,
  threadCounts,
  words,
} from './ui/browser-expected.js';
import { type HostileOutcome, startHostilePage } from './ui/browser-hostile-page.js';
import {
  attributesOf,
  CHROMIUM_MISSING,
  findChromium,
  launchChromium,
  PageWatch,
  SCREENSHOT_DIR,
  saveScreenshot,
  textsOf,
  waitForAll,
  waitForCount,
} from './ui/browser-session.js';
import {
  journalFile,
  lockOf,
  recordCost,
  recordsOf,
  slowExample,
  waitUntil,
} from './ui/executions.js';

const chromium = findChromium();
if (chromium === undefined) console.warn(`ui-browser.int.test.ts skipped: ${CHROMIUM_MISSING}`);
const describeInChromium = chromium === undefined ? describe.skip : describe;

/** Screenshots this file saves, by name (artifacts/screenshots/<name>.png). */
const SCREENSHOTS = ['list', 'timeline', 'codon', 'diff', 'rollback', 'live', 'parallel'] as const;

const idOf = (dir: string) => basename(dir);
const usd = (value: string | null | undefined) => Number(value ?? Number.NaN);
/** `[attribute-name="value"]`, quoted for a CSS selector. */
const where = (name: string, value: string) => `[${name}=${JSON.stringify(value)}]`;
const testId = (id: string) => where('data-testid', id);

// The dashboard of `hankweave ui --write` in real headless Chromium, on executions the CLI made
// with the scripted model: a finished one, one rolled back by `hankweave rollback`, and a live
// one started during its test. What each page shows is checked against state.json,
// events.jsonl, the execution's meta and its hank, read here by hand.
describeInChromium(`hankweave ui in headless Chromium (${chromium ?? 'none'})`, () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let ui: ReturnType<typeof startCli>;
  let printed: { url: string; port: number; token: string };
  let origin: string;
  /** The dashboard's tab, in the browser's default context (it holds the cookie). */
  let page: Page;
  let liveRun: ReturnType<typeof startCli> | undefined;
  const dirs = { finished: '', rolledBack: '' };
  const watch = new PageWatch();
  const open = (path: string) => page.goto(`${origin}${path}`, { waitUntil: 'load' });

  beforeAll(async () => {
    sandbox = createSandbox();
    const cli = (...args: string[]) => runCli(args, { env: sandbox.env });
    const hello = sandbox.copyExample();
    const run = () =>
      cli(hello.hankDir, hello.dataDir, '--scripted-model', hello.script, '--start-new');
    const [launched, finished, toRollBack] = await Promise.all([
      launchChromium(chromium as string),
      run(),
      run(),
    ]);
    browser = launched;
    expect([finished.code, toRollBack.code]).toEqual([0, 0]);
    dirs.finished = executionDirOf(finished.stdout);
    dirs.rolledBack = executionDirOf(toRollBack.stdout);
    expect((await cli('rollback', 'summarize', '-e', dirs.rolledBack)).code).toBe(0);
    // As a run of a git URL records it (issue 35), with markup in the URL: shown as text.
    const metaFile = join(dirs.rolledBack, '.hankweave', 'execution-meta.json');
    const recorded = JSON.parse(readFileSync(metaFile, 'utf8'));
    recorded.hankSource = {
      kind: 'git',
      url: 'https://example.invalid/acme/<b>hanks</b>.git',
      ref: 'feature/x',
      commit: '0123456789abcdef0123456789abcdef01234567',
      subdir: 'hello',
    };
    writeFileSync(metaFile, JSON.stringify(recorded, null, 2));

    ui = startCli(['ui', '--base', sandbox.baseDir, '--json', '--write'], sandbox.env);
    await ui.waitFor(/"token"/);
    printed = JSON.parse(ui.output());
    origin = new URL(printed.url).origin;
    page = await watch.open(browser, 'dashboard');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (liveRun) await liveRun.stop('SIGKILL');
    if (ui) expect(await ui.stop('SIGINT')).toBe(0);
    sandbox?.cleanup();
  });

  it('lands on the list without the token in the address, one row per execution on disk', async () => {
    await page.goto(printed.url, { waitUntil: 'load' });
    expect(page.url()).toBe(`${origin}/`);
    const cookies = await browser.cookies();
    expect(cookies).toContainEqual(
      expect.objectContaining({
        name: `hankweave_ui_${printed.port}`,
        httpOnly: true,
        sameSite: 'Strict',
      }),
    );

    const onDisk = executionNames(sandbox.baseDir);
    expect(onDisk).toHaveLength(2);
    await waitForCount(page, testId('execution-row'), onDisk.length);
    const rows = await attributesOf(page, testId('execution-row'), ['data-id']);
    expect(rows.map((row) => row['data-id']).sort()).toEqual([...onDisk].sort());
    await page.waitForSelector(testId('execution-count'));
    expect(await attributesOf(page, testId('execution-count'), ['data-total'])).toEqual([
      { 'data-total': String(onDisk.length) },
    ]);

    for (const dir of [dirs.finished, dirs.rolledBack]) {
      const state = fullState(dir);
      const row = `${testId('execution-row')}${where('data-id', idOf(dir))}`;
      const [status] = await attributesOf(page, `${row} ${testId('execution-status')}`, [
        'data-status',
      ]);
      const [cost] = await attributesOf(page, `${row} ${testId('execution-cost')}`, ['data-usd']);
      const [codons] = await textsOf(page, `${row} ${testId('execution-codons')}`);
      const counts = threadCounts(state);
      expect(status?.['data-status']).toBe(stoppedStatus(state));
      expect(usd(cost?.['data-usd'])).toBeCloseTo(executionCost(state), 10);
      // "4 / 4", "2 / 4", with ✕n and ⤼n only for failed and skipped codons.
      const failed = counts.failed > 0 ? ` ✕${counts.failed}` : '';
      const skipped = counts.skipped > 0 ? ` ⤼${counts.skipped}` : '';
      expect(words(codons ?? '')).toBe(
        `${counts.completed}${failed}${skipped} / ${counts.planned}`,
      );
      expect(await page.$(`${row} ${testId('live-marker')}`)).toBeNull();
    }
    // What the two executions are, said by hand as well.
    expect(stoppedStatus(fullState(dirs.finished))).toBe('completed');
    expect(stoppedStatus(fullState(dirs.rolledBack))).toBe('partial');
    await saveScreenshot(page, 'list');
  });

  /** The run tree on the page: each run node's reason, status and the run it nests under. */
  async function runTreeOnPage() {
    return page.evaluate(
      (selector: string) =>
        Array.from(
          (
            globalThis as unknown as {
              document: { querySelectorAll(s: string): ArrayLike<InPageRunNode> };
            }
          ).document.querySelectorAll(selector),
        ).map((node) => ({
          runId: node.getAttribute('data-run-id'),
          reason: node.getAttribute('data-reason'),
          status: node.getAttribute('data-status'),
          parent: node.parentElement?.closest(selector)?.getAttribute('data-run-id') ?? null,
        })),
      testId('run-node'),
    );
  }

  /** The same, from state.json: a continuation nests under the run it continues. */
  const runTreeOf = (state: StateJson) =>
    state.runs.map((run: FullRunJson) => ({
      runId: run.runId,
      reason: runReason(run),
      status: run.status,
      parent: run.startingConditions.source?.runId ?? null,
    }));
  const byRunId = (a: { runId: string | null }, b: { runId: string | null }) =>
    String(a.runId).localeCompare(String(b.runId));

  /** Checks an execution page's timeline, run tree and costs against state.json. */
  async function checkExecutionPage(dir: string) {
    const state = fullState(dir);
    const records = recordsOf(state);
    await page.waitForSelector(`${testId('execution-header')}${where('data-id', idOf(dir))}`);
    await waitForCount(page, testId('codon-bar'), records.length);
    // Where the hank came from: execution-meta.json's hankSource (a path when it has none).
    const recordedMeta = JSON.parse(
      readFileSync(join(dir, '.hankweave', 'execution-meta.json'), 'utf8'),
    );
    const source = recordedMeta.hankSource ?? { kind: 'path', path: recordedMeta.hankPath };
    const sourceCell = `${testId('execution-header')} ${testId('execution-hank-source')}`;
    expect(await attributesOf(page, sourceCell, ['data-kind'])).toEqual([
      { 'data-kind': source.kind },
    ]);
    expect(await textsOf(page, sourceCell)).toEqual([
      source.kind === 'git'
        ? `${source.url}#${source.ref}:${source.subdir} @ ${source.commit.slice(0, 12)}`
        : source.path,
    ]);
    expect(await page.$$(`${sourceCell} b`)).toHaveLength(0);
    await page.waitForSelector(testId('costs-total'));
    const bars = await attributesOf(page, testId('codon-bar'), ['data-key', 'data-status']);
    expect(bars.map((bar) => [bar['data-key'], bar['data-status']]).sort()).toEqual(
      records.map(({ key, record }) => [key, record.status]).sort(),
    );
    expect(await attributesOf(page, testId('timeline'), ['data-bars'])).toEqual([
      { 'data-bars': String(records.length) },
    ]);
    const iterations = await attributesOf(page, testId('loop-iteration'), [
      'data-loop-id',
      'data-run-id',
      'data-iteration',
    ]);
    expect(iterations).toEqual(
      records.flatMap(({ run, record }) => {
        const loop = (record as { loopContext?: { loopId: string; iteration: number } })
          .loopContext;
        return loop
          ? [
              {
                'data-loop-id': loop.loopId,
                'data-run-id': run.runId,
                'data-iteration': String(loop.iteration),
              },
            ]
          : [];
      }),
    );
    expect((await runTreeOnPage()).sort(byRunId)).toEqual(runTreeOf(state).sort(byRunId));
    const [total] = await attributesOf(page, testId('costs-total'), ['data-usd']);
    const [header] = await attributesOf(
      page,
      `${testId('execution-header')} ${testId('execution-cost')}`,
      ['data-usd'],
    );
    const cost = records.reduce((sum, { record }) => sum + recordCost(record), 0);
    expect(usd(total?.['data-usd'])).toBeCloseTo(cost, 10);
    expect(usd(header?.['data-usd'])).toBeCloseTo(cost, 10);
  }

  /** Checks a codon page (already open) against the record, the journal and the hank. */
  async function checkCodonPage(dir: string, key: string) {
    const state = fullState(dir);
    const journal = journalFile(dir);
    const found = recordsOf(state).find((candidate) => candidate.key === key);
    const record = found?.record as StateJson['runs'][number]['codons'][number];
    const entry = state.executionPlan.find((planned) => planned.codonId === record.codonId);
    if (!entry) throw new Error(`No plan entry for ${record.codonId}`);
    await page.waitForSelector(`${testId('codon-header')}${where('data-key', key)}`);
    await page.waitForSelector(testId('codon-event-count'));
    const [status] = await attributesOf(page, testId('codon-status'), ['data-status']);
    expect(status?.['data-status']).toBe(record.status);
    const [tokens] = await attributesOf(page, testId('codon-tokens'), [
      'data-input',
      'data-output',
    ]);
    expect(tokens).toEqual({
      'data-input': String(record.finalTokens?.inputTokens),
      'data-output': String(record.finalTokens?.outputTokens),
    });
    const [cost] = await attributesOf(page, testId('codon-cost'), ['data-usd']);
    expect(usd(cost?.['data-usd'])).toBeCloseTo(recordCost(record), 10);

    const [prompt] = await textsOf(page, testId('codon-prompt'));
    expect(words(prompt ?? '')).toContain(words(promptOf(dir, entry)));

    // The agent's actions: the journal's assistant.action events of this codon, each tool call
    // with its tool.result threaded under it.
    const events = codonEvents(journal, record.codonId);
    const actions = await attributesOf(page, testId('codon-event'), ['data-type', 'data-id']);
    expect(actions).toEqual(
      events
        .filter((event) => event.type === 'assistant.action')
        .map((event) => ({ 'data-type': event.type, 'data-id': event.id })),
    );
    expect(await textsOf(page, `${testId('tool-result')} pre`)).toEqual(
      events.flatMap((event) =>
        event.type === 'tool.result' ? [(event.data as { result: string }).result] : [],
      ),
    );

    const files = await attributesOf(page, testId('file-change'), ['data-path', 'data-status']);
    expect(files.map((file) => ({ path: file['data-path'], status: file['data-status'] }))).toEqual(
      changedFiles(dir, entry, journal),
    );
  }

  it('shows the finished execution: one bar per record, its runs and costs; a bar opens its codon', async () => {
    const dir = dirs.finished;
    await page
      .locator(
        `${testId('execution-row')}${where('data-id', idOf(dir))} ${testId('execution-link')}`,
      )
      .click();
    await checkExecutionPage(dir);
    await saveScreenshot(page, 'timeline');

    // Clicking a bar is a deep link to that codon execution.
    const [run] = fullState(dir).runs;
    const key = `${run?.runId}~1`;
    expect(run?.codons[1]?.codonId).toBe('summarize');
    await page.locator(`${testId('codon-bar')}${where('data-key', key)}`).click();
    await page.waitForSelector(`${testId('codon-header')}${where('data-key', key)}`);
    expect(page.url()).toBe(`${origin}/executions/${idOf(dir)}/codons/${encodeURIComponent(key)}`);
    await checkCodonPage(dir, key);
    await saveScreenshot(page, 'codon');

    // Every other codon execution by its deep link, loaded fresh.
    for (const { key: other } of recordsOf(fullState(dir))) {
      if (other === key) continue;
      await open(`/executions/${idOf(dir)}/codons/${encodeURIComponent(other)}`);
      await checkCodonPage(dir, other);
    }
  });

  it('shows the rolled-back execution: one rollback run nested under the first', async () => {
    await open(`/executions/${idOf(dirs.rolledBack)}`);
    await checkExecutionPage(dirs.rolledBack);
    // `hankweave rollback` records one run: no empty `continue` run before the rollback's own.
    const reasons = (await runTreeOnPage()).map((node) => node.reason).sort();
    expect(reasons).toEqual(['fresh', 'rollback']);
  });

  it("draws a parallel block's branches as lanes and its merge as a marker", async () => {
    const { hankDir, dataDir, script } = writeParallelHank(join(sandbox.root, 'parallel'));
    const made = await runCli([hankDir, dataDir, '--scripted-model', script, '--start-new'], {
      env: sandbox.env,
    });
    expect(made.code, made.stderr).toBe(0);
    const dir = executionDirOf(made.stdout);
    const records = recordsOf(fullState(dir));
    await open(`/executions/${idOf(dir)}`);
    // Every record but the merge is a bar; the merge (codon id = the block id) is a marker.
    await waitForCount(page, testId('codon-bar'), records.length - 1);
    const labels = await attributesOf(page, '.timeline-label', [
      'data-testid',
      'data-block-id',
      'data-branch-id',
    ]);
    expect(labels.map((label) => Object.values(label).join(':'))).toEqual([
      'timeline-row::',
      'parallel-group:review:',
      'branch-lane:review:left',
      'branch-lane:review:right',
      'timeline-row::',
    ]);
    const key = (codonId: string) => records.find(({ record }) => record.codonId === codonId)?.key;
    expect(await attributesOf(page, testId('merge-marker'), ['data-key', 'data-status'])).toEqual([
      { 'data-key': key('review'), 'data-status': 'completed' },
    ]);
    // The two branches ran at once: their bars overlap in time, on rows of their own.
    const box = async (codonId: string) =>
      (
        await page.$(`${testId('codon-bar')}${where('data-key', key(codonId) ?? '')}`)
      )?.boundingBox();
    const [style, tests] = [await box('style'), await box('tests')];
    if (!style || !tests) throw new Error('the branch bars are drawn');
    expect(tests.y).toBeGreaterThan(style.y);
    expect(style.x).toBeLessThan(tests.x + tests.width);
    expect(tests.x).toBeLessThan(style.x + style.width);
    await saveScreenshot(page, 'parallel');
  });

  it('skips the running branch codon chosen among those of a live parallel block, and only it', async () => {
    // Both branch codons start with a tool call that sleeps, so both run for a while at once:
    // style (skipped) long enough for a loaded machine, tests as long as the page needs.
    const { hankDir, dataDir, script } = writeParallelHank(join(sandbox.root, 'parallel-live'));
    const model = JSON.parse(readFileSync(script, 'utf8'));
    for (const [index, seconds] of [
      [1, 40],
      [2, 12],
    ] as const)
      model.conversations[index].turns[0].content.unshift({
        bash: { command: `ls . && sleep ${seconds}`, description: 'Wait' },
      });
    writeFileSync(script, JSON.stringify(model));
    const run = startCli(
      [hankDir, dataDir, '--scripted-model', script, '--start-new', '--port', '0', '--json'],
      sandbox.env,
    );
    liveRun = run;
    await run.waitForErrors(/Execution: (\S+)/);
    const dir = /Execution: (\S+)/.exec(run.errors())?.[1] as string;
    await waitUntil('a runtime port', () => lockOf(dir)?.port);
    await open(`/executions/${idOf(dir)}`);
    // The chooser appears once both run, oldest first; Skip names the codon chosen.
    const chooser = testId('action-codon');
    await waitForCount(page, `${chooser} option`, 2, 20_000);
    const options = await attributesOf(page, `${chooser} option`, ['value']);
    expect(options.map((option) => option.value).sort()).toEqual(['style', 'tests']);
    await page.select(chooser, 'style');
    await page.locator(testId('action-skip')).click();
    await page.waitForSelector(`${testId('confirm-dialog')}[open]`);
    const [title] = await textsOf(page, `${testId('confirm-dialog')} h2`);
    expect(title).toContain('(style');
    await page.locator(testId('confirm-action')).click();
    await page.waitForSelector(`${testId('action-result')}${where('data-action', 'skip')}`);
    const [result] = await attributesOf(page, testId('action-result'), ['data-ok']);
    const [message] = await textsOf(page, testId('action-result-message'));
    expect(result?.['data-ok'], message).toBe('true');
    expect(await run.exited()).toBe(0);
    liveRun = undefined;
    const statuses = Object.fromEntries(
      recordsOf(fullState(dir)).map(({ record }) => [record.codonId, record.status]),
    );
    expect(statuses).toMatchObject({ style: 'skipped', tests: 'completed', ship: 'completed' });
  }, 90_000);

  it('lists the checkpoints state.json records and diffs two side by side', async () => {
    const dir = dirs.finished;
    const state = fullState(dir);
    const journal = journalFile(dir);
    await open(`/executions/${idOf(dir)}/checkpoints`);
    await page.waitForSelector(testId('checkpoint-row'));
    const rows = await attributesOf(page, testId('checkpoint-row'), ['data-sha']);
    expect(rows.map((row) => row['data-sha']).sort()).toEqual(recordedCheckpoints(state));

    // A: the end of summarize; B: the end of the first polish pass, which rewrote summary.md.
    const codons = state.runs[0]?.codons ?? [];
    const from = codons[1]?.completionCheckpoint as string;
    const to = codons[2]?.completionCheckpoint as string;
    expect([codons[1]?.codonId, codons[2]?.codonId]).toEqual(['summarize', 'polish-pass#0']);
    await page
      .locator(`${testId('checkpoint-row')}${where('data-sha', from)} ${testId('pick-from')}`)
      .click();
    const picked = (name: string) => new URL(page.url()).searchParams.get(name);
    await waitUntil('A in the address', () => (picked('from') === from ? true : undefined), 5_000);
    await page
      .locator(`${testId('checkpoint-row')}${where('data-sha', to)} ${testId('pick-to')}`)
      .click();
    const view = `${testId('diff-view')}${where('data-from', from)}${where('data-to', to)}`;
    await page.waitForSelector(`${view} ${testId('diff-file')}`);
    expect([picked('from'), picked('to')]).toEqual([from, to]);
    expect(
      await attributesOf(page, `${view} ${testId('diff-file')}`, ['data-path', 'data-status']),
    ).toEqual([{ 'data-path': 'summary.md', 'data-status': 'modified' }]);
    // Open every fold, then each pane holds the whole file as that checkpoint has it.
    for (
      let fold = await page.$(testId('diff-collapsed'));
      fold;
      fold = await page.$(testId('diff-collapsed'))
    )
      await fold.click();
    const written = (codonId: string) => {
      const write = codonEvents(journal, codonId).findLast(
        (event) =>
          event.type === 'file.updated' &&
          (event.data as { path: string; source?: { kind: string } }).path === 'summary.md' &&
          (event.data as { source?: { kind: string } }).source?.kind !== 'codon-start',
      );
      return ((write?.data as { content?: string } | undefined)?.content ?? '').split('\n');
    };
    const lines = (text: string) => text.replace(/\n$/, '').split('\n');
    const pane = async (side: 'before' | 'after') =>
      textsOf(page, `${view} ${testId(`diff-pane-${side}`)} .diff-line:not(.empty) .code`);
    expect(await pane('after')).toEqual(lines(written('polish-pass#0').join('\n')));
    expect(await pane('before')).toEqual(lines(written('summarize').join('\n')));
    expect(await pane('after')).toContain('Populations are approximate.');
    await saveScreenshot(page, 'diff');
  });

  it('rolls back through the UI: a confirmed click makes a rollback run from that checkpoint', async () => {
    const dir = dirs.finished;
    const before = fullState(dir);
    const summarize = before.runs[0]?.codons[1];
    const sha = summarize?.completionCheckpoint as string;
    await open(`/executions/${idOf(dir)}/checkpoints`);
    await page.locator(`${testId('action-rollback')}${where('data-sha', sha)}`).click();
    await page.waitForSelector(`${testId('confirm-dialog')}[open]`);
    // Nothing happens before the confirmation.
    expect(fullState(dir).runs).toHaveLength(before.runs.length);
    await page.locator(testId('confirm-action')).click();
    await page.waitForSelector(`${testId('action-result')}${where('data-action', 'rollback')}`);
    const [result] = await attributesOf(page, testId('action-result'), ['data-ok']);
    const [message] = await textsOf(page, testId('action-result-message'));
    expect(result?.['data-ok'], message).toBe('true');

    const after = fullState(dir);
    // One rollback, one new run.
    expect(after.runs).toHaveLength(before.runs.length + 1);
    const rollback = after.runs.find(
      (run) => run.startingConditions.reason === 'rollback',
    ) as FullRunJson;
    expect(rollback.startingConditions.source).toEqual({
      runId: before.runs[0]?.runId,
      afterCodon: 'summarize',
      checkpointSha: sha,
    });
    expect(before.runs.map((run) => run.runId)).not.toContain(rollback.runId);
    expect(message).toContain(rollback.runId);
    expect(after.runs[0]?.runId).toBe(rollback.runId);
    // The tracked file is back to what summarize wrote.
    expect(readFileSync(join(dir, 'agentRoot', 'summary.md'), 'utf8')).not.toContain('approximate');

    // The page shows it: the execution's run tree has the new run, nested under the first.
    await page.locator(testId('back-to-execution')).click();
    await page.waitForSelector(
      `${testId('run-node')}${where('data-run-id', rollback.runId)}${where('data-reason', 'rollback')}`,
    );
    expect((await runTreeOnPage()).sort(byRunId)).toEqual(runTreeOf(after).sort(byRunId));
    // Back on summarize: partial, two of the four planned codons done on the thread.
    const counts = threadCounts(after);
    expect([counts.completed, counts.planned]).toEqual([2, 4]);
    await page.waitForSelector(
      `${testId('execution-header')} ${testId('execution-status')}${where('data-status', stoppedStatus(after))}`,
    );
    const [codons] = await textsOf(
      page,
      `${testId('execution-header')} ${testId('execution-codons')}`,
    );
    expect(words(codons ?? '')).toBe(
      `${counts.completed} done · ${counts.failed} failed · ${counts.skipped} skipped / ${counts.planned}`,
    );
    await saveScreenshot(page, 'rollback');
  });

  /** One line of the live tail: its event type and its text. */
  type TailLine = { type: string; text: string };

  /**
   * Starts a run of the example whose first tool call sleeps 4 s (with `flags`), opens it from
   * the list while it is live, sees tail lines arrive while the stream is open, and follows it:
   * the run exits 0, the stream ends, the page shows it completed with every bar completed.
   * Returns the execution and the tail's lines.
   */
  async function followInBrowser(
    name: string,
    flags: string[],
    screenshot?: string,
  ): Promise<{ dir: string; tail: TailLine[] }> {
    const slow = slowExample(sandbox, name, 4);
    const run = startCli(
      [slow.hankDir, slow.dataDir, '--scripted-model', slow.script, '--start-new', '--json'].concat(
        flags,
      ),
      sandbox.env,
    );
    liveRun = run;
    await run.waitForErrors(/Execution: (\S+)/);
    const dir = /Execution: (\S+)/.exec(run.errors())?.[1] as string;
    const wantsPort = flags.includes('--port');
    await waitUntil('runtime.lock', () => {
      const lock = lockOf(dir);
      return lock && (!wantsPort || lock.port) ? true : undefined;
    });

    // The list shows it live; its page follows it: lines arrive while the stream is open.
    await open('/');
    const row = `${testId('execution-row')}${where('data-id', idOf(dir))}`;
    await page.waitForSelector(`${row} ${testId('live-marker')}`);
    await page.locator(`${row} ${testId('execution-link')}`).click();
    await page.waitForSelector(`${testId('execution-header')} ${testId('live-marker')}`);
    await waitForAll(
      page,
      [`${testId('live-tail')}${where('data-status', 'open')}`, testId('live-event')],
      20_000,
    );
    if (screenshot) await saveScreenshot(page, screenshot);

    expect(await run.exited()).toBe(0);
    liveRun = undefined;
    expect(stoppedStatus(fullState(dir))).toBe('completed');
    // The run is over: the stream ends within a few seconds.
    const ended = await page
      .waitForSelector(`${testId('live-tail')}${where('data-status', 'ended')}`, {
        timeout: 10_000,
      })
      .then(
        () => true,
        () => false,
      );
    const readTail = async (): Promise<TailLine[]> => {
      const types = await attributesOf(page, testId('live-event'), ['data-type']);
      const texts = await textsOf(page, `${testId('live-event')} .text`);
      return types.map((line, index) => ({
        type: line['data-type'] ?? '',
        text: texts[index] ?? '',
      }));
    };
    if (!ended) {
      const [tail] = await attributesOf(page, testId('live-tail'), ['data-status']);
      const [status] = await attributesOf(
        page,
        `${testId('execution-header')} ${testId('execution-status')}`,
        ['data-status'],
      );
      const lines = await readTail();
      throw new Error(
        `The run exited 0 but 10 s later the live tail still says ${tail?.['data-status']} (header: ${status?.['data-status']}); it shows ${lines.length} of the ${journalFile(dir).length} journaled events, the last: ${lines.at(-1)?.type} ${lines.at(-1)?.text}`,
      );
    }
    await page.waitForSelector(
      `${testId('execution-header')} ${testId('execution-status')}${where('data-status', 'completed')}`,
    );
    expect(await page.$(`${testId('execution-header')} ${testId('live-marker')}`)).toBeNull();

    // The timeline moved with the run: every record of state.json, completed.
    const records = recordsOf(fullState(dir));
    expect(records.length).toBeGreaterThan(0);
    await waitForCount(
      page,
      `${testId('codon-bar')}${where('data-status', 'completed')}`,
      records.length,
    );
    const bars = await attributesOf(page, testId('codon-bar'), ['data-key', 'data-status']);
    expect(bars.map((bar) => [bar['data-key'], bar['data-status']]).sort()).toEqual(
      records.map(({ key }) => [key, 'completed']).sort(),
    );
    const tail = await readTail();
    expect(tail.length).toBeGreaterThan(20);
    expect(tail.map((line) => line.type)).toContain('codon.completed');
    return { dir, tail };
  }

  /**
   * The tail's lines are the journal's events from the moment the page subscribed to the end, in
   * order, and nothing else (the lines carry no ids: types, and the text of info lines).
   */
  function expectJournaledTail(dir: string, tail: TailLine[]) {
    const events = journalFile(dir);
    const journaledInfo = events.flatMap((event) =>
      event.type === 'info' ? [(event.data as { message: string }).message] : [],
    );
    // The tail shows a long message cut to one line, ending in "…": that is its start.
    const shows = (message: string, text: string) =>
      text.endsWith('…') ? message.startsWith(text.slice(0, -1)) : message === text;
    const unjournaled = tail.filter(
      (line) => line.type === 'info' && !journaledInfo.some((message) => shows(message, line.text)),
    );
    expect(unjournaled, 'info lines that events.jsonl does not hold').toEqual([]);
    const journal = events.map((event) => event.type);
    const shown = tail.map((line) => line.type);
    expect(shown).toEqual(journal.slice(journal.length - shown.length));
  }

  /** The run followed over its WebSocket, for the test after it. */
  const followed = { dir: '', tail: [] as TailLine[] };

  it('follows a live run that serves a WebSocket to its end: marker, tail, all bars completed', async () => {
    Object.assign(followed, await followInBrowser('live-hank', ['--port', '0'], 'live'));
  });

  it('shows in the tail of that run only the journaled events, from its subscription on, in order', () => {
    expect(followed.tail.length, 'the live test did not get to the tail').toBeGreaterThan(0);
    expectJournaledTail(followed.dir, followed.tail);
  });

  it('follows a live run that serves no WebSocket (journal tail) to its end the same way', async () => {
    const { dir, tail } = await followInBrowser('tail-hank', []);
    expectJournaledTail(dir, tail);
  });

  it('gives a page of another origin nothing to read and no action, and a tokenless visitor no data', async () => {
    // The dashboard's cookie is in this browser, and 127.0.0.1 on another port is the same site:
    // what stops the other page is CORS (no CORS headers), CORP, and the action checks.
    expect((await browser.cookies()).map((cookie) => cookie.name)).toContain(
      `hankweave_ui_${printed.port}`,
    );
    const target = idOf(dirs.rolledBack);
    const statePath = join(dirs.rolledBack, '.hankweave', 'state.json');
    const stateBefore = readFileSync(statePath, 'utf8');
    const mtimeBefore = statSync(statePath).mtimeMs;
    const hostile = await startHostilePage(origin, `/api/executions/${target}/actions/rollback`);
    try {
      const other = await watch.open(browser, 'another-origin');
      // What reached the dashboard's origin from that page, and how the browser ended it.
      const network: string[] = [];
      other.on('response', (response) => {
        if (response.url().startsWith(origin))
          network.push(`${response.request().method()} ${response.status()}`);
      });
      other.on('requestfailed', (request) => {
        if (request.url().startsWith(origin))
          network.push(`${request.method()} ${request.failure()?.errorText}`);
      });
      await other.goto(hostile.url, { waitUntil: 'load' });
      await other.waitForFunction(
        () =>
          (
            globalThis as unknown as {
              document: { getElementById(id: string): { textContent: string | null } | null };
            }
          ).document.getElementById('outcome')?.textContent !== 'pending',
        { timeout: 15_000 },
      );
      const [text] = await textsOf(other, '#outcome');
      const outcome = JSON.parse(text ?? '{}') as HostileOutcome;
      // Every attempt rejects: the CORS read (no Access-Control-Allow-Origin), the no-cors read
      // (Cross-Origin-Resource-Policy: same-origin), the dashboard's kind of POST (its preflight
      // gets 405), and the simple POST, which is sent but whose answer is blocked as the read's.
      expect(outcome).toEqual({
        read: { rejected: 'TypeError' },
        opaqueRead: { rejected: 'TypeError' },
        action: { rejected: 'TypeError' },
        simpleAction: { rejected: 'TypeError' },
      });
      // The no-cors answers came back and were blocked for their Cross-Origin-Resource-Policy;
      // the preflight was refused (405), so the JSON POST itself was never sent.
      expect(network.sort()).toEqual(
        [
          'GET net::ERR_FAILED',
          'GET net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin',
          'OPTIONS 405',
          'POST net::ERR_FAILED',
          'POST net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin',
        ].sort(),
      );
      await other.close();
    } finally {
      await hostile.close();
    }
    expect(readFileSync(statePath, 'utf8')).toBe(stateBefore);
    expect(statSync(statePath).mtimeMs).toBe(mtimeBefore);

    // A browser without the token (a fresh incognito context) gets 401 and no execution data.
    const incognito = await browser.createBrowserContext();
    try {
      const stranger = await watch.open(incognito, 'no-token');
      const names = executionNames(sandbox.baseDir);
      for (const path of ['/', `/executions/${target}`, '/api/executions', '/?token=wrong']) {
        const response = await stranger.goto(`${origin}${path}`, { waitUntil: 'load' });
        expect(response?.status(), path).toBe(401);
        const body = await stranger.content();
        for (const name of names) expect(body, path).not.toContain(name);
        expect(body, path).not.toContain(sandbox.baseDir);
        expect(await stranger.$(testId('execution-row'))).toBeNull();
      }
      expect(await incognito.cookies()).toEqual([]);
    } finally {
      await incognito.close();
    }
  });

  it('saved full-page screenshots of each view for CI', () => {
    for (const name of SCREENSHOTS) {
      const file = join(SCREENSHOT_DIR, `${name}.png`);
      const png = readFileSync(file);
      expect(png.subarray(1, 4).toString('latin1'), file).toBe('PNG');
      expect(png.length, file).toBeGreaterThan(10_000);
    }
  });

  it('raised no console error, uncaught exception or CSP violation on any dashboard page', () => {
    expect(watch.of((label) => label === 'dashboard')).toEqual([]);
    // The hostile and tokenless pages fail on purpose; still, nothing there broke the CSP.
    expect(watch.problems.filter((problem) => problem.kind !== 'console')).toEqual([]);
  });
});

/** A run node as the in-page function reads it. */
interface InPageRunNode {
  getAttribute(name: string): string | null;
  parentElement: { closest(selector: string): InPageRunNode | null } | null;
}
