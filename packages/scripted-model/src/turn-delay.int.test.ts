import { describe, expect, it } from 'vitest';
import { postChat } from '../test/helpers/chat.js';
import { postMessages } from '../test/helpers/sse.js';
import type { ScriptInput } from './script-schema.js';
import { startScriptedModel } from './start-scripted-model.js';

const hello = { messages: [{ role: 'user', content: 'hello' }] };
const slowTurns = (delayMs: number): ScriptInput => ({
  conversations: [
    {
      turns: [{ content: [{ text: 'after a while' }], delayMs }, { content: [{ text: 'second' }] }],
    },
  ],
});

describe('a turn with delayMs', () => {
  it('is answered after its delay on the Messages API and on Chat Completions', async () => {
    await using model = await startScriptedModel({ script: slowTurns(400) });
    let started = performance.now();
    const messages = await postMessages(model.url, hello);
    expect(await messages.json()).toMatchObject({ content: [{ text: 'after a while' }] });
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);

    started = performance.now();
    const chat = await postChat(model.url, { ...hello, model: 'gpt-5.2' });
    expect(JSON.stringify(await chat.json())).toContain('after a while');
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('sends nothing to a client that left during the delay, and the server still closes', async () => {
    const model = await startScriptedModel({ script: slowTurns(60_000) });
    const gone = new AbortController();
    const request = postMessages(model.url, hello, { signal: gone.signal }).catch(
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    gone.abort();
    expect(await request).toMatchObject({ name: 'AbortError' });
    const closing = performance.now();
    await model.close();
    expect(performance.now() - closing).toBeLessThan(5_000);
    expect(model.requests[0]?.match).toMatchObject({ served: 'content' });
  });
});
