import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('./fixtures/agent-logs/', import.meta.url));
const names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));

// Other packages parse these recorded agent logs; keep them whole and well-formed.
describe('recorded agent logs', () => {
  it('has the happy path, resume and failure logs', () => {
    expect(names.sort()).toEqual([
      'happy-path-tools.jsonl',
      'prompt-too-long.jsonl',
      'rate-limit-429.jsonl',
      'resume.jsonl',
      'stall-timeout.jsonl',
    ]);
  });

  it.each(names)('%s: starts with system/init and ends with one result', async (name) => {
    const lines = (await readFile(`${dir}${name}`, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; subtype?: string; session_id?: string });
    expect(lines[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      session_id: expect.any(String),
    });
    expect(lines.filter((line) => line.type === 'result')).toHaveLength(1);
    expect(lines.at(-1)?.type).toBe('result');
  });
});
