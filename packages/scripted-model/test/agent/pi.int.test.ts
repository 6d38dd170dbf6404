import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScript, startScriptedModel } from '../../src/index.js';
import { createAgentSandbox } from '../helpers/claude.js';
import { createPiSandbox, type PiLine, piCliPath } from '../helpers/pi.js';

// One script for both agents. Pi runs the tool calls of one turn in parallel, so a check of a
// written file is the next turn, not the same one (see the README).
const examplePath = fileURLToPath(
  new URL('../../examples/both-agents.script.json', import.meta.url),
);
const prompt = 'Write the greeting. BOTH_AGENTS_DEMO';
const cli = piCliPath();
const piTitle =
  cli === undefined
    ? 'drives Pi (skipped: Pi not found; set PI_CLI_PATH to @mariozechner/pi-coding-agent/dist/cli.js)'
    : 'drives Pi over Chat Completions with real tools';

type AssistantMessage = {
  role: string;
  content: { type: string; text?: string; name?: string }[];
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  stopReason: string;
};

function assistantMessages(lines: PiLine[]): AssistantMessage[] {
  return lines
    .filter((line) => line.type === 'message_end')
    .map((line) => line.message as AssistantMessage)
    .filter((message) => message.role === 'assistant');
}

describe.concurrent('one script driving both agents', () => {
  // Pi is not a dependency of this package: point PI_CLI_PATH at its dist/cli.js
  // (`npm i @mariozechner/pi-coding-agent@0.73.1` in any directory), or install it next to it.
  it.skipIf(cli === undefined)(piTitle, async () => {
    const script = await loadScript(examplePath);
    await using model = await startScriptedModel({ script });
    await using sandbox = await createPiSandbox(cli as string);
    const run = await sandbox.run({ baseUrl: model.url, prompt });

    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(sandbox.cwd, 'greeting.txt'), 'utf8')).toBe(
      'Hello from a scripted model!\n',
    );
    // The scripted overload (503 here) was served once; the OpenAI client retried on its own.
    expect(model.requests.map((r) => [r.kind, r.match?.turn, r.match?.served])).toEqual([
      ['chat-completions', 0, 'failure'],
      ['chat-completions', 0, 'content'],
      ['chat-completions', 1, 'content'],
      ['chat-completions', 2, 'content'],
    ]);
    // Pi ran the real tools under its own names; the bash output chose turn 2's first alternative.
    const tools = run.lines.filter((line) => line.type === 'tool_execution_end');
    expect(tools.map((line) => [line.toolName, line.isError])).toEqual([
      ['write', false],
      ['bash', false],
    ]);
    expect(model.requests[3]?.match?.alternative).toBe(0);
    const messages = assistantMessages(run.lines);
    expect(messages[0]?.content.map((block) => block.type)).toEqual([
      'thinking',
      'text',
      'toolCall',
    ]);
    expect(messages.at(-1)).toMatchObject({
      content: [{ type: 'text', text: 'Done: greeting.txt is written.' }],
      stopReason: 'stop',
    });
    // Pi reads back exactly the scripted token counts, cache reads and writes included.
    expect(messages.map((message) => message.usage)).toMatchObject([
      { input: 1200, output: 80, cacheRead: 900, cacheWrite: 0 },
      { input: 1300, output: 20, cacheRead: 1100, cacheWrite: 0 },
      { input: 1500, output: 12, cacheRead: 0, cacheWrite: 300 },
    ]);
  });

  it('drives Claude Code over the Messages API with the same script', async () => {
    const script = await loadScript(examplePath);
    await using model = await startScriptedModel({ script });
    await using sandbox = await createAgentSandbox();
    const run = await sandbox.run({ baseUrl: model.url, prompt });

    expect(await readFile(join(sandbox.cwd, 'greeting.txt'), 'utf8')).toBe(
      'Hello from a scripted model!\n',
    );
    expect(run.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Done: greeting.txt is written.',
    });
    const served = model.requests.filter((r) => r.kind === 'messages' && r.side !== true);
    expect(served.map((r) => [r.match?.turn, r.match?.served])).toEqual([
      [0, 'failure'],
      [0, 'content'],
      [1, 'content'],
      [2, 'content'],
    ]);
  });
});
