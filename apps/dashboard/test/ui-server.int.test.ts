import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createFileJournal } from '@hankweave/journal';
import { startWebSocketServer } from '@hankweave/server';
import { createFakePort } from '@hankweave/server/testing';
import type { HankweaveEvent } from '@hankweave/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../server/start-ui-server.js';
import type {
  CodonDetail,
  DiffWire,
  EventPageWire,
  ExecutionDetail,
  ExecutionList,
  ExecutionSummary,
} from '../src/api/types.js';
import { createSandbox, executionDirOf, runCli, type Sandbox, startCli } from './cli.js';
import { failingExample, journalFile, recordCost, recordsOf, stateFile } from './ui/executions.js';
import { type Answer, postAction, readEventStream, send } from './ui/http-client.js';
import { followLiveRun } from './ui/live-run.js';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// `hankweave ui` over real HTTP on loopback, on executions the CLI produced with the scripted
// model: a finished one, a failed one, one rolled back by `hankweave rollback`, and live runs.
// Every answer is checked against state.json and events.jsonl parsed here, by hand.
describe('hankweave ui', () => {
  let sandbox: Sandbox;
  const dirs = { finished: '', failed: '', rolledBack: '' };
  let binary: ReturnType<typeof startCli>;
  let origin: string;
  let auth: Record<string, string>;
  let writer: UiServer;
  let assets: string;
  const answers: Answer[] = [];
  const get = async (path: string, headers: Record<string, string> = auth) => {
    const answer = await send(origin, path, { headers });
    answers.push(answer);
    return answer;
  };
  const api = async <T>(path: string): Promise<T> => {
    const answer = await get(path);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<T>();
  };
  const idOf = (dir: string) => basename(dir);
  const writerSide = () => ({ origin: new URL(writer.url).origin, token: writer.token });

  beforeAll(async () => {
    sandbox = createSandbox();
    const cli = (...args: string[]) => runCli(args, { env: sandbox.env });
    const hello = sandbox.copyExample();
    const failing = failingExample(sandbox);
    const runOf = (example: typeof hello) =>
      cli(example.hankDir, example.dataDir, '--scripted-model', example.script, '--start-new');
    const [finished, failed, toRollBack] = await Promise.all([
      runOf(hello),
      runOf(failing),
      runOf(hello),
    ]);
    expect([finished.code, failed.code, toRollBack.code]).toEqual([0, 1, 0]);
    dirs.finished = executionDirOf(finished.stdout);
    dirs.failed = executionDirOf(failed.stdout);
    dirs.rolledBack = executionDirOf(toRollBack.stdout);
    expect((await cli('rollback', 'summarize', '-e', dirs.rolledBack)).code).toBe(0);

    binary = startCli(['ui', '--base', sandbox.baseDir, '--json'], sandbox.env);
    await binary.waitFor(/"token"/);
    const printed = JSON.parse(binary.output()) as { url: string; port: number; token: string };
    origin = new URL(printed.url).origin;
    auth = { authorization: `Bearer ${printed.token}` };
    expect(printed.url).toBe(`http://127.0.0.1:${printed.port}/?token=${printed.token}`);

    assets = join(sandbox.root, 'assets');
    mkdirSync(join(assets, 'assets'), { recursive: true });
    writeFileSync(join(assets, 'index.html'), '<!doctype html><title>fixture app</title>');
    writeFileSync(join(assets, 'assets', 'app.js'), 'export {};');
    writer = await startUiServer({ baseDir: sandbox.baseDir, write: true, assetsDir: assets });
  }, 60_000);

  afterAll(async () => {
    await writer?.close();
    // Ctrl-C stops it cleanly.
    expect(await binary?.stop('SIGINT')).toBe(0);
    sandbox?.cleanup();
  });

  it('trades the token of the printed URL for an HttpOnly SameSite=Strict cookie', async () => {
    const token = auth.authorization?.slice('Bearer '.length) ?? '';
    const first = await get(`/executions/x?token=${token}&from=a`, {});
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/executions/x?from=a');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const withCookie = await get('/api/info', { cookie: cookie.split(';')[0] as string });
    expect(withCookie.json()).toEqual({
      version: expect.any(String),
      baseDir: sandbox.baseDir,
      write: false,
      fleet: false,
    });
  });

  it('answers nothing without the token: 401 with no data, whatever is asked', async () => {
    const refusals = await Promise.all([
      get('/api/executions', {}),
      get(`/api/executions/${idOf(dirs.finished)}`, { authorization: 'Bearer wrong' }),
      get('/api/info', { cookie: 'hankweave_ui_1=nope' }),
      get('/', {}),
      get('/?token=wrong', {}),
      get('/assets/app.js', {}),
    ]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401);
      expect(refusal.text).not.toContain(idOf(dirs.finished));
      expect(refusal.text).not.toContain(sandbox.baseDir);
    }
  });

  it('refuses a Host that is not this server (DNS rebinding), and any cross-origin POST', async () => {
    const port = new URL(origin).port;
    expect((await get('/api/info', { ...auth, host: `evil.example:${port}` })).status).toBe(421);
    expect((await get('/api/info', { ...auth, host: `localhost:${port}` })).status).toBe(200);
    const path = `/api/executions/${idOf(dirs.failed)}/actions/rollback`;
    const before = statSync(join(dirs.failed, '.hankweave', 'state.json')).mtimeMs;
    const body = { confirm: true, target: 'last-success' };
    const foreign = await postAction(writerSide(), path, body, { origin: 'http://evil.example' });
    const noHeader = await postAction(writerSide(), path, body, {
      'x-hankweave-action': undefined,
    });
    const preflight = await send(writerSide().origin, path, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect([foreign.status, noHeader.status, preflight.status]).toEqual([403, 403, 405]);
    answers.push(foreign, noHeader, preflight);
    expect(statSync(join(dirs.failed, '.hankweave', 'state.json')).mtimeMs).toBe(before);
  });

  it('lists the executions with the statuses, costs and codons their state.json holds', async () => {
    const list = await api<ExecutionList>('/api/executions');
    expect(list.total).toBe(3);
    const byId = new Map(list.executions.map((row) => [row.id, row] as const));
    const expected: [string, ExecutionSummary['status']][] = [
      [dirs.finished, 'completed'],
      [dirs.failed, 'failed'],
      [dirs.rolledBack, 'partial'],
    ];
    for (const [dir, status] of expected) {
      const row = byId.get(idOf(dir));
      const state = stateFile(dir);
      const cost = recordsOf(state).reduce((total, { record }) => total + recordCost(record), 0);
      expect(row).toMatchObject({
        dir,
        status,
        live: false,
        hankName: 'hello-hank',
        runs: state.runs.length,
      });
      expect(row?.costUsd).toBeCloseTo(cost, 10);
      expect(row?.codons.planned).toBe(state.executionPlan.length);
    }
    const failed = await api<ExecutionList>('/api/executions?status=failed');
    expect(failed.executions.map((row) => row.id)).toEqual([idOf(dirs.failed)]);
  });

  it('answers an execution: its run tree and one bar per codon record', async () => {
    const detail = await api<ExecutionDetail>(`/api/executions/${idOf(dirs.rolledBack)}`);
    const state = stateFile(dirs.rolledBack);
    expect(detail.bars.map((bar) => [bar.key, bar.codonId, bar.status])).toEqual(
      recordsOf(state).map(({ key, record }) => [key, record.codonId, record.status]),
    );
    expect(detail.runTree).toHaveLength(1);
    // `hankweave rollback` records one run (no empty `continue` run before it).
    expect(detail.runTree[0]?.children.map((child) => child.reason)).toEqual(['rollback']);
    expect(detail.runTree[0]?.children[0]?.from?.afterCodon).toBe('summarize');
    expect(detail.loops).toEqual([{ loopId: 'polish', iterations: 2 }]);
    expect(detail.live).toBeUndefined();
  });

  it('pages the journal forward, from the tail and per codon record as events.jsonl holds it', async () => {
    const id = idOf(dirs.finished);
    const journal = journalFile(dirs.finished);
    const ids: string[] = [];
    let cursor = '';
    for (let more = true; more; ) {
      const page = await api<EventPageWire>(
        `/api/executions/${id}/events?limit=50&after=${cursor}`,
      );
      ids.push(...page.events.map((event) => event.id));
      cursor = page.nextCursor;
      more = page.hasMore;
      expect(page.total).toBe(journal.length);
    }
    expect(ids).toEqual(journal.map((event) => event.id));
    const tail = await api<EventPageWire>(`/api/executions/${id}/events?before=&limit=5`);
    expect(tail.events.map((event) => event.id)).toEqual(
      journal.slice(-5).map((event) => event.id),
    );

    const [bar] = (await api<ExecutionDetail>(`/api/executions/${id}`)).bars;
    const ofCodon = (event: HankweaveEvent) =>
      (event.data as { codonId?: string }).codonId === 'observe';
    const tools = await api<EventPageWire>(
      `/api/executions/${id}/events?codon=${encodeURIComponent(bar?.key ?? '')}&types=tool.result,assistant.*`,
    );
    expect(tools.events.map((event) => event.id)).toEqual(
      journal
        .filter(
          (event) =>
            ofCodon(event) && (event.type === 'tool.result' || event.type.startsWith('assistant.')),
        )
        .map((event) => event.id),
    );
    const codon = await api<CodonDetail>(
      `/api/executions/${id}/codons/${encodeURIComponent(bar?.key ?? '')}`,
    );
    expect(codon.eventCount).toBe(journal.filter(ofCodon).length);
    const usage = journal.filter((event) => ofCodon(event) && event.type === 'token.usage');
    expect(codon.usage).toHaveLength(usage.length);
    const spent = usage.reduce(
      (total, event) => total + (event.data as { totalCost: number }).totalCost,
      0,
    );
    expect(codon.usage.at(-1)?.costUsd).toBeCloseTo(spent, 10);
    expect(codon.prompt).toContain('Write what you observe to notes/observations.md');
    expect(codon.prompt).toContain(join(dirs.finished, 'agentRoot', 'read_only_data_source'));
    expect(codon.files).toEqual([
      { path: 'notes/README.md', status: 'added' },
      { path: 'notes/observations.md', status: 'added' },
    ]);
  });

  it('lists the checkpoints and diffs any two, with the text before and after', async () => {
    const id = idOf(dirs.finished);
    const listed = await api<{ sha: string }[]>(`/api/executions/${id}/checkpoints`);
    const [observe, summarize] = stateFile(dirs.finished).runs[0]?.codons ?? [];
    for (const sha of [
      observe?.rigSetupCheckpoint,
      observe?.completionCheckpoint,
      summarize?.completionCheckpoint,
    ])
      expect(listed.map((checkpoint) => checkpoint.sha)).toContain(sha);
    const diff = await api<DiffWire>(
      `/api/executions/${id}/diff?from=${observe?.completionCheckpoint}&to=${summarize?.completionCheckpoint}`,
    );
    const summary = readFileSync(join(dirs.finished, 'agentRoot', 'summary.md'), 'utf8');
    expect(diff.files).toEqual([
      {
        path: 'summary.md',
        status: 'added',
        after: expect.stringContaining('Montevideo is the largest.'),
      },
    ]);
    expect(summary.startsWith(diff.files[0]?.after ?? '-')).toBe(true);
    const missing = await get(
      `/api/executions/${id}/diff?from=${observe?.completionCheckpoint}&to=deadbeef`,
    );
    expect(missing.status).toBe(404);
  });

  it('refuses traversal and unknown ids with a 404 naming what was not found', async () => {
    const id = idOf(dirs.finished);
    const cases: [string, RegExp][] = [
      ['/api/executions/..%2F..%2Fetc', /\.\.%2F\.\.%2Fetc/],
      ['/api/executions/nope', /nope/],
      [`/api/executions/${id}/codons/nope~0`, /nope~0/],
      ['/../../etc/passwd', /etc\/passwd/],
      ['/assets/%2e%2e/%2e%2e/package.json', /package\.json/],
      ['/missing.js', /missing\.js/],
    ];
    for (const [path, named] of cases) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.json<{ error: { message: string } }>().error.message).toMatch(named);
    }
  });

  it('serves the app for deep links and its assets by path', async () => {
    const side = writerSide();
    const headers = { authorization: `Bearer ${side.token}` };
    const deep = await send(side.origin, '/executions/abc/codons/r~1', { headers });
    expect(deep.status).toBe(200);
    expect(deep.text).toContain('fixture app');
    const script = await send(side.origin, '/assets/app.js', { headers });
    expect(script.headers['content-type']).toMatch(/javascript/);
    answers.push(deep, script, await get(`/executions/${idOf(dirs.failed)}`));
    expect(answers.at(-1)?.headers['content-type']).toMatch(/text\/html/);
  });

  it('sends its security headers and never a CORS header on any answer', () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe(CSP);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(
        Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([]);
      if (answer.headers['content-type']?.startsWith('application/json'))
        expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('rolls back through the API only with --write, as hankweave rollback does', async () => {
    const id = idOf(dirs.failed);
    const path = `/api/executions/${id}/actions/rollback`;
    const readOnly = await postAction({ origin, token: auth.authorization?.slice(7) ?? '' }, path, {
      confirm: true,
      target: 'last-success',
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json()).toMatchObject({
      error: { code: 'READ_ONLY', hint: expect.stringMatching(/--write/) },
    });
    const done = await postAction(writerSide(), path, { confirm: true, target: 'last-success' });
    expect(done.status, done.text).toBe(200);
    expect(done.json()).toMatchObject({
      ok: true,
      message: expect.stringMatching(/Rolled back to observe/),
    });
    const [latest] = stateFile(dirs.failed).runs;
    expect(latest?.startingConditions).toMatchObject({
      reason: 'rollback',
      source: { afterCodon: 'observe' },
    });
  });

  it('refuses an action without confirmation, with a bad target, or on a stopped run, naming why', async () => {
    const id = idOf(dirs.finished);
    const action = (name: string, body: Record<string, unknown>) =>
      postAction(writerSide(), `/api/executions/${id}/actions/${name}`, body);
    const errorOf = (answer: Answer) =>
      answer.json<{ error: { code: string; hint?: string } }>().error;
    const before = statSync(join(dirs.finished, '.hankweave', 'state.json')).mtimeMs;
    const refusals = await Promise.all([
      action('skip', {}),
      action('next', { confirm: true, target: 'observe' }),
      action('stop', { confirm: true, target: 42 }),
      action('skip', { confirm: true, target: 'observe' }),
      action('explode', { confirm: true }),
    ]);
    expect(refusals.map((answer) => [answer.status, errorOf(answer).code])).toEqual([
      [400, 'CONFIRMATION_REQUIRED'],
      [400, 'BAD_PARAMETER'],
      [400, 'BAD_PARAMETER'],
      [409, 'EXECUTION_NOT_RUNNING'],
      [404, 'ACTION_NOT_FOUND'],
    ]);
    for (const refusal of refusals) expect(errorOf(refusal).hint).toEqual(expect.any(String));
    expect(statSync(join(dirs.finished, '.hankweave', 'state.json')).mtimeMs).toBe(before);
  });

  /** Follows a live run over SSE; checks the stream against the run's journal. */
  async function followLive(
    name: string,
    flags: string[],
    during: (id: string) => Promise<void>,
    sleepSeconds?: number,
  ) {
    const followed = await followLiveRun({
      sandbox,
      name,
      flags,
      origin,
      headers: auth,
      during,
      ...(sleepSeconds !== undefined ? { sleepSeconds } : {}),
    });
    const { dir, messages, lock } = followed;
    expect(followed.exitCode).toBe(0);
    expect(followed.status).toBe(200);
    expect(followed.contentType).toMatch(/text\/event-stream/);
    expect(messages[0]?.event).toBe('state');
    expect(messages.at(-1)).toEqual({ event: 'end', data: { status: 'completed' } });
    expect(messages.at(-2)).toMatchObject({
      event: 'state',
      data: { summary: { status: 'completed' } },
    });
    // The relayed events are the journal's from some point on, in order, none left out.
    const journal = journalFile(dir).map((event) => event.id);
    const relayed = messages
      .map((message) => (message.event === 'hankweave' ? (message.data as HankweaveEvent).id : ''))
      .filter((id) => journal.includes(id));
    expect(relayed).toEqual(journal.slice(journal.indexOf(relayed[0] as string)));
    expect(relayed.length).toBeGreaterThan(40);
    // The runtime's token stays in the server.
    if (lock.token) expect(JSON.stringify(messages)).not.toContain(lock.token);
    return dir;
  }

  it('follows a live run to its end over server-sent events, and skips its codon with --write', async () => {
    // The skip must land while observe's tool call sleeps; on a loaded machine the way there
    // (journal, stream, action, the runtime's WebSocket) took over 10 s once (a CI run). The skip
    // ends the sleep with the agent's sandbox, so a long sleep costs nothing when it lands.
    const dir = await followLive(
      'live-hank',
      ['--port', '0'],
      async (id) => {
        // Aimed at a codon that is not running, a skip stops nothing.
        const missed = await postAction(writerSide(), `/api/executions/${id}/actions/skip`, {
          confirm: true,
          target: 'summarize',
        });
        expect(missed.status).toBe(409);
        expect(missed.json()).toMatchObject({
          error: {
            code: 'RUNTIME_NO_CODON_RUNNING',
            message: 'Codon summarize is not running (observe is); nothing was stopped',
          },
        });
        const skipped = await postAction(writerSide(), `/api/executions/${id}/actions/skip`, {
          confirm: true,
          target: 'observe',
        });
        expect(skipped.json()).toEqual({ ok: true, message: 'Codon observe is being skipped.' });
      },
      60,
    );
    expect(stateFile(dir).runs[0]?.codons[0]).toMatchObject({
      codonId: 'observe',
      status: 'skipped',
    });
  }, 120_000);

  it('follows a run that serves no WebSocket by tailing its journal', async () => {
    await followLive('tail-hank', [], async (id) => {
      const refused = await postAction(writerSide(), `/api/executions/${id}/actions/skip`, {
        confirm: true,
      });
      expect(refused.status).toBe(409);
      expect(refused.json()).toMatchObject({ error: { code: 'NO_WEBSOCKET' } });
    });
  });
  it('relays an event announced over the WebSocket before it reached the journal, while the run is quiet', async () => {
    // The runtime starts an event's append and broadcasts it; the append lands a moment later
    // (the journal writes in batches). A read woken by the message can miss it, and during a
    // long tool call no other message follows: the live view then stalled until the next one
    // (a CI run saw a skip wait out a 60 s sleep that way). Here a runtime port announces an
    // event, journals it 300 ms later, and then says nothing while the stream is read.
    const id = `${idOf(dirs.finished)}-quiet`;
    const dir = join(sandbox.baseDir, id);
    cpSync(dirs.finished, dir, { recursive: true });
    const hankweaveDir = join(dir, '.hankweave');
    const port = createFakePort({ autostart: true, executionDir: dir });
    const server = await startWebSocketServer(port, { serverVersion: 'test' });
    const now = new Date().toISOString();
    const lock = { pid: process.pid, runId: null, startTime: now, lastHeartbeat: now };
    writeFileSync(
      join(hankweaveDir, 'runtime.lock'),
      JSON.stringify({ ...lock, port: server.port, host: '127.0.0.1', token: server.token }),
      { mode: 0o600 },
    );
    const journal = await createFileJournal({ hankweaveDir });
    let announced: HankweaveEvent | undefined;
    let waiting = false;
    let relayedAfterMs: number | undefined;
    let sent = 0;
    const relayed = new Promise<void>((resolve) => {
      const stream = readEventStream(
        new URL(writer.url).origin,
        `/api/executions/${id}/live`,
        { authorization: `Bearer ${writer.token}` },
        (message) => {
          if (message.event === 'state' && !waiting) {
            // Announce only once the dashboard's server is a handshaken client of the runtime:
            // an event broadcast before that is not one it could have been woken by.
            waiting = true;
            const announce = (): void => {
              if (!server.clients().some((client) => client.handshaken)) {
                setTimeout(announce, 20);
                return;
              }
              sent = Date.now();
              announced = port.emit('assistant.action', {
                codonId: 'observe',
                action: 'tool_use',
                content: '',
                toolName: 'Bash',
                toolInput: { command: 'sleep 60' },
              });
              setTimeout(() => void journal.append(announced as HankweaveEvent), 300);
            };
            announce();
          }
          const event = message.data as HankweaveEvent;
          if (message.event === 'hankweave' && event.id === announced?.id) {
            relayedAfterMs = Date.now() - sent;
            resolve();
          }
        },
        30_000,
      );
      stream.catch(() => undefined);
    });
    try {
      // Nothing else is sent until the event is relayed (or this gives up): the retries alone
      // must find it, well within the run's quiet 60 s.
      await Promise.race([relayed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      expect(relayedAfterMs, 'the announced event was never relayed').toBeDefined();
      expect(relayedAfterMs).toBeLessThan(3_000);
    } finally {
      rmSync(join(hankweaveDir, 'runtime.lock'), { force: true });
      await server.close();
      await journal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
