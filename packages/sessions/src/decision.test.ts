import { describe, expect, it } from 'vitest';
import { type AgentDecision, parseDecisionFile, parseDecisionMessage } from './decision.js';

const fromMessage = (
  decision: AgentDecision['decision'],
  reason: string | null,
): AgentDecision => ({
  decision,
  reason,
  source: 'message',
});

describe('parseDecisionMessage()', () => {
  it.each<[string, string, AgentDecision | undefined]>([
    [
      'the plain form',
      'Done.\nPLATEAU: true\nREASONING: nothing left',
      fromMessage('stop', 'nothing left'),
    ],
    [
      'false means continue',
      'PLATEAU: false\nREASONING: more to do',
      fromMessage('continue', 'more to do'),
    ],
    ['yes and no', 'plateau: yes', fromMessage('stop', null)],
    ['no', 'Plateau: NO', fromMessage('continue', null)],
    [
      'leading spaces and bullets',
      '  - PLATEAU: true\n  * REASONING: tidy',
      fromMessage('stop', 'tidy'),
    ],
    ['numbered lists', '1. PLATEAU: false\n2. REASONING: x', fromMessage('continue', 'x')],
    ['bold keys', '**PLATEAU:** true\n**REASONING:** all good', fromMessage('stop', 'all good')],
    ['bold key before the colon', '**PLATEAU**: false', fromMessage('continue', null)],
    [
      'a whole bold line',
      '**PLATEAU: true**\n**REASONING: done here**',
      fromMessage('stop', 'done here'),
    ],
    ['a quoted value', 'PLATEAU: `true`', fromMessage('stop', null)],
    ['CRLF line ends', 'PLATEAU: true\r\nREASONING: crlf\r\n', fromMessage('stop', 'crlf')],
    [
      'the last PLATEAU line wins',
      'PLATEAU: true\nthen again\nPLATEAU: false',
      fromMessage('continue', null),
    ],
    ['REASONING before PLATEAU', 'REASONING: first\nPLATEAU: true', fromMessage('stop', 'first')],
    ['an empty REASONING is null', 'PLATEAU: true\nREASONING:   ', fromMessage('stop', null)],
    ['no PLATEAU line', 'REASONING: forgot the verdict', undefined],
    ['the format quoted back is no answer', 'Answer with PLATEAU: true|false', undefined],
    ['a word that only starts with true', 'PLATEAU: trueish', undefined],
    ['PLATEAU inside a sentence is not a key', 'We hit a PLATEAU: true story', undefined],
  ])('reads %s', (_, text, expected) => {
    expect(parseDecisionMessage(text)).toEqual(expected);
  });
});

describe('parseDecisionFile()', () => {
  it.each([
    ['{"decision": "stop", "reason": "done"}', 'stop', 'done'],
    ['{"decision": "continue"}', 'continue', null],
    ['{"decision": "error", "reason": "tests broken", "extra": 1}', 'error', 'tests broken'],
    ['{"decision": " STOP "}', 'stop', null],
    ['{"decision": "stop", "reason": 42}', 'stop', null],
  ])('reads %s', (text, decision, reason) => {
    expect(parseDecisionFile(text)).toEqual({ decision, reason, source: 'result.json' });
  });

  it.each([
    ['not JSON', '{"decision":', 'not valid JSON'],
    ['an array', '["stop"]', 'must be a JSON object'],
    ['an unknown decision', '{"decision": "maybe"}', '"maybe"'],
    ['no decision', '{"reason": "x"}', 'got nothing'],
  ])('names the problem for %s', (_, text, fragment) => {
    const result = parseDecisionFile(text);
    expect(result).toHaveProperty('problem');
    expect((result as { problem: string }).problem).toContain(fragment);
  });
});
