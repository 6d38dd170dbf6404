import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import {
  API_ERROR_RULES,
  findApiErrorRule,
  IN_SESSION_PREFIX,
  NO_SESSION_PREFIX,
} from '../src/classify/api-error-rules.js';
import { classifyApiErrorText } from '../src/classify/classify-api-error-text.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = await readFile(`${packageDir}README.md`, 'utf8');

/** The rows of the first markdown table whose header row starts with `firstHeader`. */
function tableRows(firstHeader: string): string[][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\|\\s*${firstHeader}\\s*\\|`).test(line));
  expect(start, `table "${firstHeader}" in README`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, '');

describe('README', () => {
  it('lists the classification rules exactly as API_ERROR_RULES, in order', () => {
    const rows = tableRows('#');
    const ruleRows = rows.filter((row) => row[0] !== '9');
    expect(ruleRows.map((row) => row[1])).toEqual(API_ERROR_RULES.map((rule) => rule.name));
    ruleRows.forEach((row, index) => {
      const rule = API_ERROR_RULES[index];
      expect(row[0]).toBe(String(index + 1));
      expect(row[2]?.split(/`,\s*`/).map(unquote)).toEqual(rule?.needles);
      expect(unquote(row[3] ?? '')).toBe(rule?.type);
      expect(row[4]).toBe(rule?.retriable ? 'yes' : 'no');
      expect(unquote(row[5] ?? '')).toBe(rule?.prefix);
    });
    const fallbacks = rows.filter((row) => row[0] === '9');
    expect(fallbacks.map((row) => [row[1], row[4], unquote(row[5] ?? '')])).toEqual([
      ['no session', 'no', NO_SESSION_PREFIX],
      ['in session', 'yes', IN_SESSION_PREFIX],
    ]);
  });

  it('has a classification table whose every row is a passing case, covering every rule', () => {
    const rows = tableRows('error text');
    expect(rows.length).toBeGreaterThanOrEqual(20);
    const seen = new Set<string>();
    for (const [text = '', session, ruleName, type, retriable, retryAfter] of rows) {
      const sessionEstablished = session === 'yes';
      const result = classifyApiErrorText(text, { sessionEstablished });
      const rule = findApiErrorRule(text);
      const expectedRule = rule?.name ?? (sessionEstablished ? 'in session' : 'no session');
      seen.add(expectedRule);
      expect({ text, rule: expectedRule, type: result.type, retriable: result.retriable }).toEqual({
        text,
        rule: ruleName,
        type: unquote(type ?? ''),
        retriable: retriable === 'yes',
      });
      expect(result.retryAfterMs, text).toBe(retryAfter === '' ? undefined : Number(retryAfter));
    }
    expect([...seen].sort()).toEqual(
      [...API_ERROR_RULES.map((rule) => rule.name), 'in session', 'no session'].sort(),
    );
  });

  it('runs its quick start', async () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(block).toContain("from '@hankweave/harness'");
    // The snippet has no type annotations, so it runs as JavaScript against the built package.
    const dist = pathToFileURL(`${packageDir}dist/index.js`).href;
    const dir = await makeTempDir('hw-readme-');
    const file = join(dir.path, 'quick-start.mjs');
    await writeFile(file, block.replaceAll("'@hankweave/harness'", `'${dist}'`));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [file]);
      expect(stdout).toContain('tool.result');
      expect(stdout).toContain('token.usage 0.0048');
      expect(stdout).toContain("type: 'api-error'");
    } finally {
      await dir.cleanup();
    }
  });
});
