import { HankweaveError } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@hankweave/scripted-model', () => {
  it('exports exactly the public surface', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "SCRIPTED_MODEL_ERROR_CODES",
        "ScriptedModelError",
        "buildScriptJsonSchema",
        "contentBlockSchema",
        "conversationSchema",
        "failureSchema",
        "loadScript",
        "matchSchema",
        "parseScript",
        "scriptSchema",
        "slotSchema",
        "startScriptedModel",
        "turnSchema",
        "usageSchema",
        "whenSchema",
      ]
    `);
  });

  it('lists every error code', () => {
    expect(api.SCRIPTED_MODEL_ERROR_CODES).toMatchInlineSnapshot(`
      [
        "SCRIPTED_MODEL_INVALID_SCRIPT",
        "SCRIPTED_MODEL_SCRIPT_UNREADABLE",
        "SCRIPTED_MODEL_INVALID_REQUEST",
        "SCRIPTED_MODEL_NO_CONVERSATION",
        "SCRIPTED_MODEL_NO_TURN",
        "SCRIPTED_MODEL_LISTEN_FAILED",
      ]
    `);
  });

  it('makes errors that HankweaveError.is recognises and serialises', () => {
    const error = new api.ScriptedModelError('SCRIPTED_MODEL_NO_TURN', 'no turn 3', {
      details: { turn: 3 },
    });
    expect(HankweaveError.is(error)).toBe(true);
    expect(api.ScriptedModelError.is(error, 'SCRIPTED_MODEL_NO_TURN')).toBe(true);
    expect(api.ScriptedModelError.is(error, 'SCRIPTED_MODEL_NO_CONVERSATION')).toBe(false);
    expect(api.ScriptedModelError.is(new HankweaveError('SCRIPTED_MODEL_NO_TURN', 'x'))).toBe(
      false,
    );
    expect(error.toJSON()).toEqual({
      name: 'ScriptedModelError',
      code: 'SCRIPTED_MODEL_NO_TURN',
      message: 'no turn 3',
      details: { turn: 3 },
    });
  });
});
