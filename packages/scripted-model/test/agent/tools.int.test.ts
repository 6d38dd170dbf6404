import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScript, type ScriptedModel, startScriptedModel } from '../../src/index.js';
import { createAgentSandbox, maybeSaveFixture } from '../helpers/claude.js';

const examplePath = fileURLToPath(
  new URL('../../examples/write-file.script.json', import.meta.url),
);

type Body = { messages: { role: string; content: unknown }[] };

function messagesBodies(model: ScriptedModel): Body[] {
  return model.requests.filter((r) => r.kind === 'messages').map((r) => r.body as Body);
}

describe.concurrent('Claude Code driven by a script', () => {
  it('writes the file and runs Bash as the README example scripts', async () => {
    const script = await loadScript(examplePath);
    await using model = await startScriptedModel({ script });
    await using sandbox = await createAgentSandbox();
    const run = await sandbox.run({
      baseUrl: model.url,
      prompt: 'Write the greeting. WRITE_FILE_DEMO',
    });
    await maybeSaveFixture('happy-path-tools', run);

    expect(await readFile(join(sandbox.cwd, 'greeting.txt'), 'utf8')).toBe(
      'Hello from a scripted model!\n',
    );
    expect(run.result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Done: greeting.txt is written.',
    });
    // The scripted 529 was served once; the agent retried on its own and got the content.
    const served = model.requests.filter((r) => r.kind === 'messages').map((r) => r.match);
    expect(served).toMatchObject([
      { turn: 0, served: 'failure', failure: 'overloaded', attempt: 1 },
      { turn: 0, served: 'content' },
      { turn: 1, served: 'content', alternative: 0 },
    ]);
    expect(run.lines.filter((l) => l.subtype === 'api_retry')).toHaveLength(1);
    // The agent posted both tool results back; the Bash one carries the command's output.
    const last = messagesBodies(model).at(-1)?.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(JSON.stringify(last?.content)).toContain('GREETING_OK');
    // Usage reaches the result exactly as scripted (sum of the served turns).
    const turns = script.conversations[0]?.turns ?? [];
    const usages = [turns[0], turns[1]].map((slot) =>
      slot === undefined ? undefined : 'choose' in slot ? slot.choose[0]?.usage : slot.usage,
    );
    const sum = (
      key: 'inputTokens' | 'outputTokens' | 'cacheReadInputTokens' | 'cacheCreationInputTokens',
    ) => usages.reduce((total, usage) => total + (usage?.[key] ?? 0), 0);
    expect(run.result?.usage).toMatchObject({
      input_tokens: sum('inputTokens'),
      output_tokens: sum('outputTokens'),
      cache_read_input_tokens: sum('cacheReadInputTokens'),
      cache_creation_input_tokens: sum('cacheCreationInputTokens'),
    });
  });

  it('runs a Bash command and posts its output back as the tool result', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          { match: { marker: 'NOT_THIS_ONE' }, turns: [{ content: [{ text: 'wrong' }] }] },
          {
            // Found in the system prompt, where --append-system-prompt puts it.
            match: { marker: 'CODON_MARKER_BASH' },
            turns: [
              {
                content: [
                  {
                    bash: 'mkdir -p built && echo $((6 * 7)) > built/answer.txt && echo ANSWER_WRITTEN',
                  },
                ],
              },
              { content: [{ text: 'answer written' }] },
            ],
          },
        ],
      },
    });
    await using sandbox = await createAgentSandbox();
    const run = await sandbox.run({
      baseUrl: model.url,
      prompt: 'compute the answer',
      args: ['--append-system-prompt', 'You are codon CODON_MARKER_BASH.'],
    });

    expect(await readFile(join(sandbox.cwd, 'built/answer.txt'), 'utf8')).toBe('42\n');
    const toolResult = messagesBodies(model).at(-1)?.messages.at(-1)?.content as {
      type: string;
      content: string;
      is_error?: boolean;
    }[];
    expect(toolResult[0]).toMatchObject({ type: 'tool_result', is_error: false });
    expect(toolResult[0]?.content).toContain('ANSWER_WRITTEN');
    expect(run.result).toMatchObject({ is_error: false, result: 'answer written' });
    expect(model.requests.map((r) => r.match?.conversationName)).toEqual(['#1', '#1']);
  });

  it('reads then edits a file with the Read and Edit shorthands', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          {
            turns: [
              { content: [{ read: 'config.txt' }] },
              {
                content: [
                  {
                    edit: { path: 'config.txt', oldString: 'debug=false', newString: 'debug=true' },
                  },
                ],
              },
              { content: [{ text: 'debug enabled' }] },
            ],
          },
        ],
      },
    });
    await using sandbox = await createAgentSandbox();
    await writeFile(join(sandbox.cwd, 'config.txt'), 'name=demo\ndebug=false\n');
    const run = await sandbox.run({ baseUrl: model.url, prompt: 'enable debug' });

    expect(await readFile(join(sandbox.cwd, 'config.txt'), 'utf8')).toBe('name=demo\ndebug=true\n');
    expect(run.result).toMatchObject({ is_error: false, result: 'debug enabled' });
  });

  it('sends the prior history on --resume and serves the next turn', async () => {
    await using model = await startScriptedModel({
      script: {
        conversations: [
          {
            name: 'main',
            match: { marker: 'RESUME_DEMO' },
            turns: [
              { content: [{ text: 'first answer' }] },
              { content: [{ text: 'second answer' }] },
            ],
          },
          {
            name: 'other',
            match: { marker: 'SWITCH_DEMO' },
            turns: [{ content: [{ text: 'switched' }] }],
          },
        ],
      },
    });
    await using sandbox = await createAgentSandbox();
    const first = await sandbox.run({ baseUrl: model.url, prompt: 'Start. RESUME_DEMO' });
    expect(first.result).toMatchObject({ is_error: false, result: 'first answer' });
    const resumeArgs = ['--resume', String(first.sessionId)];
    const second = await sandbox.run({ baseUrl: model.url, prompt: 'Go on.', args: resumeArgs });
    await maybeSaveFixture('resume', second);

    expect(second.result).toMatchObject({ is_error: false, result: 'second answer' });
    const history = messagesBodies(model).at(-1)?.messages ?? [];
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(history[0]?.content)).toContain('RESUME_DEMO');
    expect(JSON.stringify(history[1]?.content)).toContain('first answer');
    expect(JSON.stringify(history[2]?.content)).toContain('Go on.');

    // A resumed prompt with another marker switches to that marker's conversation, turn 0.
    const third = await sandbox.run({
      baseUrl: model.url,
      prompt: 'Now SWITCH_DEMO',
      args: resumeArgs,
    });
    expect(third.result).toMatchObject({ is_error: false, result: 'switched' });
    expect(model.requests.at(-1)?.match).toMatchObject({ conversationName: 'other', turn: 0 });
  });
});
