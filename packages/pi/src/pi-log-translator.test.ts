import { defaultModelCatalog } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { PiLogTranslator } from './pi-log-translator.js';

function translator() {
  const written: Record<string, unknown>[] = [];
  const unreadable: string[] = [];
  const tools: string[] = [];
  const instance = new PiLogTranslator({
    model: 'gpt-5.2',
    catalog: defaultModelCatalog,
    write: (line) => written.push(JSON.parse(line) as Record<string, unknown>),
    unreadable: (line) => unreadable.push(line),
    toolStarted: (id) => tools.push(`+${id}`),
    toolEnded: (id) => tools.push(`-${id}`),
  });
  return { instance, written, unreadable, tools };
}

describe('PiLogTranslator', () => {
  it('writes JSON records, keeps lines that are not JSON apart and reports tool runs', () => {
    const { instance, written, unreadable, tools } = translator();
    instance.push('{"type":"session","id":"s1","cwd":"/w"}');
    instance.push('Warning: something Pi printed');
    instance.push('[1,2]');
    instance.push('');
    instance.push('{"type":"tool_execution_start","toolCallId":"t1","toolName":"bash"}');
    instance.push('{"type":"tool_execution_end","toolCallId":"t1","toolName":"bash"}');
    instance.push('{"type":"agent_end","messages":[]}');
    instance.finish();
    instance.finish();
    expect(written.map((record) => [record.type, record.subtype])).toEqual([
      ['system', 'init'],
      ['result', 'success'],
    ]);
    expect(unreadable).toEqual(['Warning: something Pi printed', '[1,2]']);
    expect(tools).toEqual(['+t1', '-t1']);
  });
});
