import { validateHank } from '@hankweave/hank';
import type { HankConfig } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { printStructure } from '../commands/validate.js';
import { printBudgetTable } from './budget-table.js';
import type { Terminal } from './terminal.js';

const plain = (text: string) => text;
function capture(): { terminal: Terminal; lines: string[] } {
  const lines: string[] = [];
  const terminal: Terminal = {
    isTTY: false,
    color: false,
    columns: 100,
    out: (line = '') => lines.push(line),
    err: () => {},
    write: () => {},
    style: { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain },
  };
  return { terminal, lines };
}

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Go.',
  ...extra,
});
const result = validateHank({
  meta: { name: 'p', version: '1.0.0' },
  hank: [
    {
      type: 'parallel',
      id: 'build',
      name: 'Build',
      budget: { maxDollars: 4 },
      merge: { onConflict: { resolver: codon('fix') } },
      branches: [
        { id: 'api', items: [codon('api-code', { budget: { maxDollars: 1 } })] },
        {
          id: 'ui',
          items: [
            {
              type: 'loop',
              id: 'polish',
              name: 'Polish',
              terminateOn: { type: 'iterationLimit', limit: 2 },
              codons: [codon('ui-code', { onFailure: 'ignore' })],
            },
          ],
        },
      ],
    },
  ],
});
const hank = result.config as HankConfig;

describe('parallel blocks in the CLI listings', () => {
  it('printStructure() shows the block, its branches, their items and the resolver', () => {
    const { terminal, lines } = capture();
    printStructure(terminal, hank);
    expect(lines).toEqual([
      'p 1.0.0',
      '[1] parallel build — Build (2 branches, on conflict: resolver fix)',
      '    [1.1] branch api',
      '        [1.1.1] api-code — api-code (sonnet, fresh)',
      '    [1.2] branch ui',
      '        [1.2.1] loop polish — Polish (up to 2 iterations)',
      '            [1.2.1.1] ui-code — ui-code (sonnet, fresh)',
      '    [1.r] fix — fix (sonnet, fresh)',
    ]);
  });

  it("printBudgetTable() lists the block's budget and its codons' budgets", () => {
    const { terminal, lines } = capture();
    printBudgetTable(terminal, hank);
    expect(lines.join('\n')).toMatch(/parallel build: /);
    expect(lines.join('\n')).toMatch(/build\/api\/api-code +\$1/);
  });
});
