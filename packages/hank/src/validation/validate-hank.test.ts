import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HankConfigInput } from '@hankweave/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateHank } from '../index.js';

const codon = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Codon ${id}`,
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: `Do ${id}`,
  checkpointedFiles: ['**/*.md'],
  ...extra,
});
const hank = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  meta: { name: 'demo', version: '1.0.0' },
  hank: items,
  ...extra,
});
const codes = (issues: { code: string }[]) => issues.map((issue) => issue.code);

describe('validateHank()', () => {
  it('accepts a valid hank and applies defaults', () => {
    const result = validateHank(
      hank([codon('a'), codon('b', { continuationMode: 'continue-previous' })]),
    );
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.config?.hank[0]).toMatchObject({
      onFailure: 'abort',
      maxExtensions: 100,
      autoCompact: false,
    });
  });

  it('names a misspelt field and suggests the right one', () => {
    const result = validateHank(hank([codon('a', { promptTxt: 'x', promptText: undefined })]));
    expect(result.valid).toBe(false);
    expect(result.errors[0]).toMatchObject({ path: 'hank[0].promptTxt', code: 'unknown_field' });
    expect(result.errors[0]?.message).toContain('Did you mean "promptText"?');
  });

  it('uses the typo map for names that are not plain misspellings', () => {
    const result = validateHank(hank([codon('a', { environment: { A: '1' }, maxCost: 3 })]));
    const messages = result.errors.map((issue) => issue.message).join('\n');
    expect(messages).toContain('Did you mean "env"?');
    expect(messages).toContain('Did you mean "budget.maxDollars"?');
  });

  it('says when a codon field is put at the root', () => {
    const result = validateHank({ ...hank([codon('a')]), promptText: 'x' });
    expect(result.errors[0]?.message).toContain('is a codon field');
  });

  it('accepts trackedFiles as a synonym of checkpointedFiles', () => {
    const result = validateHank(
      hank([codon('a', { checkpointedFiles: undefined, trackedFiles: ['x/**'] })]),
    );
    expect(result.valid).toBe(true);
  });

  it('reports errors inside loops at their own path', () => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'L',
      terminateOn: { type: 'iterationLimit', limit: 0 },
      codons: [codon('x', { onFailure: 'ignore' })],
    };
    const result = validateHank(hank([codon('a'), loop]));
    expect(result.errors.map((issue) => issue.path)).toEqual(['hank[1].terminateOn.limit']);
  });

  it('applies the cross-field rules of the reference', () => {
    const loop = {
      type: 'loop',
      id: 'ctx',
      name: 'Context loop',
      terminateOn: { type: 'contextExceeded' },
      codons: [codon('grow', { onFailure: 'abort' })],
    };
    const result = validateHank(
      hank(
        [
          codon('a', { promptText: undefined }),
          codon('a', { retryConfig: { maxAttempts: 2 } }),
          loop,
          codon('after', { continuationMode: 'continue-previous', model: 'haiku' }),
        ],
        { requirements: { env: ['HANKWEAVE_TEST_SURELY_UNSET'] } },
      ),
      { env: {} },
    );
    expect(codes(result.errors).sort()).toEqual(
      [
        'continuation_model_mismatch',
        'continues_exhausted_session',
        'duplicate_id',
        'fresh_in_context_loop',
        'missing_env',
        'prompt_required',
        'retry_config_without_retry',
      ].sort(),
    );
  });

  it('lists an unknown model before the continue-previous mismatch it causes', () => {
    const result = validateHank(
      hank([codon('a', { model: 'sonet' }), codon('b', { continuationMode: 'continue-previous' })]),
    );
    expect(result.errors.map((issue) => [issue.path, issue.code])).toEqual([
      ['hank[0].model', 'unknown_model'],
      ['hank[1].model', 'continuation_model_mismatch'],
    ]);
  });

  it('finds a required variable under its HANKWEAVE_ name too', () => {
    const config = hank([codon('a')], { requirements: { env: ['MY_KEY'] } });
    expect(validateHank(config, { env: { HANKWEAVE_MY_KEY: 'x' } }).valid).toBe(true);
    expect(validateHank(config, { env: {} }).valid).toBe(false);
  });

  it('warns about risky but legal setups', () => {
    const result = validateHank(
      hank([
        codon('first', { continuationMode: 'continue-previous', name: 'Same' }),
        codon('second', {
          name: 'Same',
          rigSetup: [{ type: 'command', command: { run: 'rm -rf /' } }],
          onFailure: 'ignore',
          checkpointedFiles: undefined,
        }),
        codon('third', { continuationMode: 'continue-previous' }),
      ]),
    );
    expect(result.valid).toBe(true);
    expect(codes(result.warnings).sort()).toEqual(
      [
        'continues_ignored_failure',
        'dangerous_command',
        'duplicate_name',
        'first_codon_continues',
        'previous_untracked',
      ].sort(),
    );
  });

  it('checks container budgets', () => {
    const result = validateHank(
      hank([codon('a'), codon('b')], {
        overrides: { budget: { maxDollars: 5, shares: { a: 0.7, b: 0.6, zz: 0.1 } } },
      }),
    );
    expect(result.errors.map((issue) => issue.path)).toEqual([
      'overrides.budget.shares',
      'overrides.budget.shares',
      'overrides.budget.shares.zz',
    ]);
  });

  it('validates plateau loops', () => {
    const loop = (terminateOn: Record<string, unknown>) =>
      hank([
        {
          type: 'loop',
          id: 'p',
          name: 'P',
          terminateOn,
          codons: [codon('x', { onFailure: 'retry' })],
        },
      ]);
    const ok = validateHank(loop({ type: 'plateau', maxIterations: 5 }));
    expect(ok.valid).toBe(true);
    expect(ok.config?.hank[0]).toMatchObject({ terminateOn: { consensus: 2, minIterations: 2 } });
    expect(codes(validateHank(loop({ type: 'plateau', maxIterations: 1 })).errors)).toContain(
      'invalid_value',
    );
  });
});

describe('validateHank() file references', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hank-refs-'));
    mkdirSync(join(dir, 'prompts'));
    mkdirSync(join(dir, 'templates/sub'), { recursive: true });
    mkdirSync(join(dir, 'sentinels/prompts'), { recursive: true });
    writeFileSync(join(dir, 'prompts/a.md'), 'Do it');
    writeFileSync(join(dir, 'prompts/empty.md'), '');
    writeFileSync(join(dir, 'templates/sub/file.txt'), 'x');
    writeFileSync(join(dir, 'sentinels/prompts/user.md'), 'Events: <%= it.events.length %>');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const check = (extra: Record<string, unknown>, settings?: Record<string, unknown>) =>
    validateHank(
      hank([codon('a', { promptText: undefined, promptFile: 'prompts/a.md', ...extra })]),
      {
        hankDir: dir,
        ...settings,
      },
    );

  it('accepts regular files inside the hank directory', () => {
    const result = check({
      rigSetup: [{ type: 'copy', copy: { from: 'templates', to: 'templates' } }],
    });
    expect(result.errors).toEqual([]);
  });

  it.each([
    ['/etc/passwd', 'invalid_path'],
    ['..\\x.md', 'invalid_path'],
    ['C:/x.md', 'invalid_path'],
    ['../outside.md', 'escapes_hank'],
    ['prompts/../../outside.md', 'escapes_hank'],
    ['prompts/missing.md', 'missing_file'],
    ['prompts', 'not_regular'],
  ])('refuses promptFile %s with %s', (ref, code) => {
    const result = check({ promptFile: ref });
    expect(result.errors).toMatchObject([{ path: 'hank[0].promptFile', code }]);
  });

  it('refuses a reference through a symlink, even one pointing inside', () => {
    symlinkSync(join(dir, 'prompts'), join(dir, 'linked'));
    expect(check({ promptFile: 'linked/a.md' }).errors[0]?.code).toBe('symlink');
  });

  it('refuses a FIFO given as a prompt', () => {
    execFileSync('mkfifo', [join(dir, 'prompts/fifo.md')]);
    expect(check({ promptFile: 'prompts/fifo.md' }).errors[0]?.message).toContain('FIFO');
  });

  it('refuses copy sources that hold symlinks or are the hank itself', () => {
    symlinkSync('/etc/hostname', join(dir, 'templates/sub/link'));
    const result = check({
      rigSetup: [
        { type: 'copy', copy: { from: 'templates', to: 't' } },
        { type: 'copy', copy: { from: '.', to: 'everything' } },
      ],
    });
    expect(codes(result.errors)).toEqual(['symlink', 'invalid_path']);
  });

  it('judges a copied tree by what its injected copy rules leave (an ignored link is fine)', () => {
    symlinkSync('/etc/hostname', join(dir, 'templates/sub/link'));
    const seen: string[] = [];
    const op = { rigSetup: [{ type: 'copy', copy: { from: 'templates', to: 't' } }] };
    const ignored = check(op, {
      copyTree: (root: string, from: string) => {
        seen.push(`${root.split('/').pop()} ${from}`);
        return { links: [], special: [], unreadable: [] };
      },
    });
    expect(ignored.errors).toEqual([]);
    expect(seen).toEqual([`${dir.split('/').pop()} templates`]);
    const kept = check(op, {
      copyTree: () => ({ links: ['templates/sub/link'], special: [], unreadable: [] }),
    });
    expect(kept.errors).toMatchObject([{ code: 'symlink' }]);
    expect(kept.errors[0]?.message).toContain('templates/sub/link');
  });

  it('warns about an empty prompt file', () => {
    expect(check({ promptFile: ['prompts/a.md', 'prompts/empty.md'] }).warnings).toMatchObject([
      { path: 'hank[0].promptFile[1]', code: 'prompt_size' },
    ]);
  });

  it('loads sentinel files and resolves their references against their own directory', () => {
    const sentinel = {
      id: 'narrator',
      name: 'Narrator',
      model: 'anthropic/claude-haiku-4-5',
      trigger: { type: 'event', on: ['assistant.action'] },
      execution: { strategy: 'debounce', milliseconds: 1000 },
      userPromptFile: 'prompts/user.md',
    };
    writeFileSync(join(dir, 'sentinels/narrator.json'), JSON.stringify(sentinel));
    writeFileSync(
      join(dir, 'sentinels/broken.json'),
      JSON.stringify({ ...sentinel, trigger: { type: 'event', on: [] }, triger: 1 }),
    );
    const good = check({ sentinels: [{ sentinelConfig: 'sentinels/narrator.json' }] });
    expect(good.errors).toEqual([]);
    expect(good.warnings).toEqual([]);
    const loose = check({ sentinels: [{ sentinelConfig: 'sentinels/broken.json' }] });
    expect(loose.valid).toBe(true);
    expect(loose.warnings.map((issue) => issue.path)).toContain('sentinels/broken.json: triger');
    const strict = check({
      sentinels: [
        { sentinelConfig: 'sentinels/broken.json', settings: { failCodonIfNotLoaded: true } },
      ],
    });
    expect(strict.valid).toBe(false);
    expect(strict.errors.find((issue) => issue.code === 'unknown_field')?.message).toContain(
      'Did you mean "trigger"?',
    );
  });

  it('types its input as the hank.json input shape', () => {
    const input: HankConfigInput = hank([codon('a')]) as HankConfigInput;
    expect(validateHank(input).valid).toBe(true);
  });
});
