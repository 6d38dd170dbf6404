import { describe, expect, it } from 'vitest';
import { parseScript } from '../load-script.js';
import type { ScriptInput } from '../script-schema.js';
import { messagesRequestSchema } from './request-view.js';
import { TurnSelector } from './select-turn.js';

type Message = { role: 'user' | 'assistant'; content: unknown };
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});
const toolResult = (content: string): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: 't1', content }],
});
const request = (messages: Message[], extra: Record<string, unknown> = {}) =>
  messagesRequestSchema.parse({ model: 'claude-sonnet-4-5', messages, ...extra });
const selector = (script: ScriptInput) => new TurnSelector(parseScript(script));
const text = (value: string) => ({ content: [{ text: value }] });

describe('TurnSelector', () => {
  describe('select()', () => {
    it('serves turn N to a request with N assistant messages', () => {
      const s = selector({ conversations: [{ turns: [text('a'), text('b'), text('c')] }] });
      expect(s.select(request([user('go')]))).toMatchObject({ type: 'content', turn: 0 });
      const later = request([
        user('go'),
        assistant('a'),
        toolResult('x'),
        assistant('b'),
        user('more'),
      ]);
      expect(s.select(later)).toMatchObject({ type: 'content', turn: 2 });
    });

    it('answers the same turn again when a request is retried', () => {
      const s = selector({ conversations: [{ turns: [text('a')] }] });
      const first = s.select(request([user('go')]));
      expect(s.select(request([user('go')]))).toEqual(first);
    });

    it('reports SCRIPTED_MODEL_NO_TURN past the last turn', () => {
      const s = selector({ conversations: [{ name: 'only', turns: [text('a')] }] });
      const selection = s.select(request([user('go'), assistant('a'), user('again')]));
      expect(selection).toMatchObject({
        type: 'error',
        error: { code: 'SCRIPTED_MODEL_NO_TURN', details: { conversation: 'only', turn: 1 } },
      });
    });

    it('matches a conversation by a marker in user text or in the system text', () => {
      const s = selector({
        conversations: [
          { name: 'a', match: { marker: 'ALPHA' }, turns: [text('a')] },
          { name: 'b', match: { marker: 'BETA' }, turns: [text('b')] },
        ],
      });
      expect(s.select(request([user('do BETA')]))).toMatchObject({ conversationName: 'b' });
      const bySystem = request([user('plain')], { system: [{ type: 'text', text: 'ALPHA mode' }] });
      expect(s.select(bySystem)).toMatchObject({ conversationName: 'a' });
    });

    it('ignores markers that only appear in tool results', () => {
      const s = selector({
        conversations: [
          { name: 'marked', match: { marker: 'ALPHA' }, turns: [text('a')] },
          { name: 'plain', turns: [text('p'), text('q')] },
        ],
      });
      const selection = s.select(request([user('go'), assistant('p'), toolResult('ALPHA')]));
      expect(selection).toMatchObject({ conversationName: 'plain', turn: 1 });
    });

    it('reports SCRIPTED_MODEL_NO_CONVERSATION when nothing matches', () => {
      const s = selector({ conversations: [{ match: { marker: 'ALPHA' }, turns: [text('a')] }] });
      expect(s.select(request([user('hello')]))).toMatchObject({
        type: 'error',
        error: { code: 'SCRIPTED_MODEL_NO_CONVERSATION' },
      });
    });

    it('counts turns from the latest marker, so a resumed prompt can switch conversations', () => {
      const s = selector({
        conversations: [
          { name: 'a', match: { marker: 'ALPHA' }, turns: [text('a0'), text('a1')] },
          { name: 'b', match: { marker: 'BETA' }, turns: [text('b0'), text('b1')] },
        ],
      });
      const resumed = request([user('ALPHA'), assistant('a0'), user('now BETA')]);
      expect(s.select(resumed)).toMatchObject({ conversationName: 'b', turn: 0 });
      const continued = request([
        user('ALPHA'),
        assistant('a0'),
        user('BETA'),
        assistant('b0'),
        user('go'),
      ]);
      expect(s.select(continued)).toMatchObject({ conversationName: 'b', turn: 1 });
    });

    it('gives unmarked conversations to independent prompts in script order', () => {
      const s = selector({
        conversations: [{ turns: [text('first')] }, { turns: [text('second')] }],
      });
      expect(s.select(request([user('one')]))).toMatchObject({ conversation: 0 });
      expect(s.select(request([user('two')]))).toMatchObject({ conversation: 1 });
      // Same prompt again: the same instance, hence the same conversation.
      expect(s.select(request([user('one')]))).toMatchObject({ conversation: 0 });
      // More prompts than conversations: the last one is reused.
      expect(s.select(request([user('three')]))).toMatchObject({ conversation: 1 });
    });

    it("keys instances on the prompt, not on Claude Code's system reminders", () => {
      const s = selector({
        conversations: [{ turns: [text('first')] }, { turns: [text('second')] }],
      });
      const withReminder = (reminder: string): Message => ({
        role: 'user',
        content: [
          { type: 'text', text: `<system-reminder>${reminder}</system-reminder>` },
          { type: 'text', text: 'same prompt' },
        ],
      });
      expect(s.select(request([withReminder('1000 tokens left')]))).toMatchObject({
        conversation: 0,
      });
      expect(s.select(request([withReminder('999 tokens left')]))).toMatchObject({
        conversation: 0,
      });
    });

    it('chooses the first alternative whose `when` holds', () => {
      const s = selector({
        conversations: [
          {
            turns: [
              text('run tests'),
              {
                choose: [
                  { when: { lastToolResultContains: 'FAILED' }, ...text('fix it') },
                  { when: { model: 'haiku' }, ...text('cheap') },
                  text('done'),
                ],
              },
            ],
          },
        ],
      });
      const after = (result: string, model = 'claude-sonnet-4-5') =>
        s.select(request([user('go'), assistant('run tests'), toolResult(result)], { model }));
      expect(after('1 FAILED')).toMatchObject({ alternative: 0, value: text('fix it') });
      expect(after('ok', 'claude-haiku-4-5')).toMatchObject({ alternative: 1 });
      expect(after('all passed')).toMatchObject({ alternative: 2, value: text('done') });
    });

    it('matches a tool result anywhere in the history with anyToolResultContains', () => {
      const s = selector({
        conversations: [
          {
            match: { marker: 'ROUND' },
            turns: [
              {
                choose: [
                  { when: { anyToolResultContains: 'round 2 done' }, ...text('too long') },
                  text('go on'),
                ],
              },
            ],
          },
        ],
      });
      // A resumed session: its new prompt comes after the earlier rounds' tool results.
      const history = (rounds: number) =>
        request(
          Array.from({ length: rounds }, (_, at) => [
            user('ROUND'),
            assistant('count'),
            toolResult(`round ${at + 1} done`),
          ])
            .flat()
            .concat(user('ROUND')),
        );
      expect(s.select(history(1))).toMatchObject({ value: text('go on') });
      expect(s.select(history(2))).toMatchObject({ value: text('too long') });
    });

    it('reports SCRIPTED_MODEL_NO_TURN when no alternative holds', () => {
      const s = selector({
        conversations: [{ turns: [{ when: { systemContains: 'strict' }, ...text('a') }] }],
      });
      expect(s.select(request([user('go')]))).toMatchObject({
        type: 'error',
        error: { code: 'SCRIPTED_MODEL_NO_TURN' },
      });
    });

    it('serves a failure `times` times, then the content', () => {
      const s = selector({
        conversations: [{ turns: [{ fail: { kind: 'overloaded' }, times: 2, ...text('ok') }] }],
      });
      const go = () => s.select(request([user('go')]));
      expect(go()).toMatchObject({ type: 'failure', failure: { kind: 'overloaded' }, attempt: 1 });
      expect(go()).toMatchObject({ type: 'failure', attempt: 2 });
      expect(go()).toMatchObject({ type: 'content', value: text('ok') });
    });

    it('serves a failure without `times` on every request', () => {
      const s = selector({ conversations: [{ turns: [{ fail: { kind: 'server-error' } }] }] });
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(s.select(request([user('go')]))).toMatchObject({ type: 'failure', attempt });
      }
    });
  });
});
