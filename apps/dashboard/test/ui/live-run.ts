import { basename } from 'node:path';
import type { HankweaveEvent } from '@hankweave/types';
import { type Sandbox, startCli } from '../cli.js';
import { lockOf, slowExample, waitUntil } from './executions.js';
import { readEventStream, type StreamMessage } from './http-client.js';

/** What following one live run produced. */
export interface FollowedRun {
  dir: string;
  /** runtime.lock as it was while the run went on. */
  lock: { pid: number; port?: number; token?: string };
  status: number;
  contentType: string | undefined;
  messages: StreamMessage[];
  exitCode: number | null;
}

/**
 * Starts a run of the example whose first tool call sleeps `sleepSeconds` (default 3; with
 * `flags`, e.g. `--port 0`), opens `/api/executions/:id/live` on the dashboard at `origin` once
 * runtime.lock exists, runs `during` while that tool call sleeps, and collects the stream until
 * the server ends it.
 */
export async function followLiveRun(options: {
  sandbox: Sandbox;
  name: string;
  flags: string[];
  origin: string;
  headers: Record<string, string>;
  during: (executionId: string) => Promise<void>;
  sleepSeconds?: number;
}): Promise<FollowedRun> {
  const slow = slowExample(options.sandbox, options.name, options.sleepSeconds ?? 3);
  const run = startCli(
    [
      slow.hankDir,
      slow.dataDir,
      '--scripted-model',
      slow.script,
      '--start-new',
      '--json',
      ...options.flags,
    ],
    options.sandbox.env,
  );
  await run.waitForErrors(/Execution: (\S+)/);
  const dir = /Execution: (\S+)/.exec(run.errors())?.[1] as string;
  const wantsPort = options.flags.includes('--port');
  const lock = await waitUntil('runtime.lock', () => {
    const held = lockOf(dir);
    return held && (!wantsPort || held.port) ? held : undefined;
  });
  let acted: Promise<unknown> | undefined;
  const onMessage = (message: StreamMessage) => {
    const event = message.data as HankweaveEvent;
    // The first tool call is the one that sleeps: act while it runs.
    const sleeping = event.type === 'assistant.action' && event.data.action === 'tool_use';
    if (message.event === 'hankweave' && sleeping)
      acted ??= options.during(basename(dir)).then(
        () => undefined,
        (error: unknown) => error,
      );
  };
  const stream = await readEventStream(
    options.origin,
    `/api/executions/${basename(dir)}/live`,
    options.headers,
    onMessage,
  );
  if (!acted) throw new Error('The run never reached its sleeping tool call');
  const failure = await acted;
  if (failure) throw failure;
  return {
    dir,
    lock,
    status: stream.status,
    contentType: stream.headers['content-type'],
    messages: stream.messages,
    exitCode: await run.exited(),
  };
}
