import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeCopyCommandSchema, hankConfigSchema, rigOperationSchema } from '@hankweave/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cloneData, FUZZ_RUNS, FUZZ_SEED, fuzz, fuzzTimeout, pathsOf } from '../../test/fuzz.js';
import { validHank } from '../../test/hank-arbitraries.js';
import { type HankIssue, validateHank } from '../index.js';

// hank.json as the original runtime accepts it (issue 17): meta optional, beforeCopy items in the
// rig-command shape (the first shape still accepted, with a warning), workingDirectory beside
// command (a warning), and errors for missing fields that say what to add.

const codon = (extra: Record<string, unknown> = {}) => ({
  id: 'a',
  name: 'A',
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Do it',
  checkpointedFiles: ['**/*.md'],
  ...extra,
});
const withOutputs = (beforeCopy: unknown[]) =>
  codon({ outputFiles: [{ copy: ['report.md'], beforeCopy }] });
const issue = (path: string) => expect.objectContaining({ path });

// outputFiles are also `not_in_effect` until they are carried out; these tests are about shapes.
const compatOnly = (warnings: HankIssue[]) =>
  warnings.filter((warning) => warning.code !== 'not_in_effect');
describe('a hank without meta', () => {
  it('validates silently and is named after its file', () => {
    const result = validateHank({ hank: [codon()] }, { hankPath: '/hanks/review.json' });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.config?.meta).toEqual({ name: 'review', version: '0.0.0' });
  });

  it('is named after its folder when the file is hank.json', () => {
    const byDir = validateHank({ hank: [codon()] }, { hankDir: '/hanks/doc-audit' });
    expect(byDir.config?.meta.name).toBe('doc-audit');
    const byPath = validateHank({ hank: [codon()] }, { hankPath: '/hanks/doc-audit/hank.json' });
    expect(byPath.config?.meta.name).toBe('doc-audit');
    expect(validateHank({ hank: [codon()] }).config?.meta).toEqual({
      name: 'hank',
      version: '0.0.0',
    });
  });

  it('keeps a meta that is given, with its rules', () => {
    const given = validateHank(
      { meta: { name: 'mine', version: '2.1.0' }, hank: [codon()] },
      { hankPath: '/h/other.json' },
    );
    expect(given.config?.meta).toEqual({ name: 'mine', version: '2.1.0' });
    const partial = validateHank({ meta: { name: 'x' }, hank: [codon()] });
    expect(partial.errors).toEqual([
      { path: 'meta.version', code: 'invalid_value', message: 'missing — add "version": "1.0.0"' },
    ]);
    const typo = validateHank({ meta: { nmae: 'x', version: '1' }, hank: [codon()] });
    expect(typo.errors).toContainEqual(
      expect.objectContaining({ path: 'meta.nmae', code: 'unknown_field' }),
    );
    expect(typo.errors.find((e) => e.path === 'meta.nmae')?.message).toContain(
      'Did you mean "name"?',
    );
  });
});

describe('outputFiles[].beforeCopy', () => {
  const canonical = { type: 'command', command: { run: 'npm run report' }, allowFailure: false };

  it('accepts the rig-command shape of the original without a warning', () => {
    const result = validateHank({
      hank: [
        withOutputs([
          { type: 'command', command: { run: 'npm run report' } },
          {
            type: 'command',
            command: { run: 'ls', workingDirectory: 'lastCopied' },
            allowFailure: true,
          },
        ]),
      ],
    });
    expect(result.errors).toEqual([]);
    expect(compatOnly(result.warnings)).toEqual([]);
    expect(result.config?.hank[0]).toMatchObject({
      outputFiles: [
        {
          beforeCopy: [
            canonical,
            {
              type: 'command',
              command: { run: 'ls', workingDirectory: 'lastCopied' },
              allowFailure: true,
            },
          ],
        },
      ],
    });
  });

  it('accepts the first shape {run} with a warning that shows it rewritten, parsed the same', () => {
    const result = validateHank({
      hank: [withOutputs([{ run: 'npm run report' }, { run: 'ls', workingDirectory: 'project' }])],
    });
    expect(result.errors).toEqual([]);
    expect(compatOnly(result.warnings).map((w) => [w.path, w.code])).toEqual([
      ['hank[0].outputFiles[0].beforeCopy[0]', 'deprecated_before_copy'],
      ['hank[0].outputFiles[0].beforeCopy[1]', 'deprecated_before_copy'],
    ]);
    expect(compatOnly(result.warnings)[0]?.message).toContain(
      '{"type":"command","command":{"run":"npm run report"}}',
    );
    expect(compatOnly(result.warnings)[1]?.message).toContain('"workingDirectory":"project"');
    const first = result.config?.hank[0] as { outputFiles?: { beforeCopy?: unknown[] }[] };
    const parsed = first.outputFiles?.[0]?.beforeCopy;
    expect(parsed).toEqual([
      canonical,
      { type: 'command', command: { run: 'ls', workingDirectory: 'project' }, allowFailure: false },
    ]);
    expect(beforeCopyCommandSchema.parse({ run: 'npm run report' })).toEqual(canonical);
  });

  it('reports mistakes in either shape at their own path, with hints', () => {
    const result = validateHank({
      hank: [
        withOutputs([
          { run: 'x', workingDirectroy: 'project' },
          { type: 'command', command: { run: 'x', wd: 'project' } },
          {},
          { type: 'command', command: { run: 'x', workingDirectory: 'home' } },
          'ls',
        ]),
      ],
    });
    const at = (index: number) => `hank[0].outputFiles[0].beforeCopy[${index}]`;
    expect(result.errors.map((e) => e.path)).toEqual([
      `${at(0)}.workingDirectroy`,
      `${at(1)}.command.wd`,
      `${at(2)}.type`,
      `${at(2)}.command`,
      `${at(3)}.command.workingDirectory`,
      at(4),
    ]);
    const messages = result.errors.map((e) => e.message);
    expect(messages[0]).toContain('Did you mean "workingDirectory"?');
    expect(messages[2]).toBe('missing — add "type": "command"');
    expect(messages[3]).toBe('missing — add "command": { "run": "<shell command>" }');
    expect(messages[4]).toContain('"project"');
    expect(messages[5]).toContain('expected object');
    expect(messages.join('\n')).not.toMatch(/Invalid input$|received undefined/m);
  });
});

describe('workingDirectory beside command', () => {
  const rig = (op: Record<string, unknown>) => ({ hank: [codon({ rigSetup: [op] })] });

  it('warns where it belongs and honours it when command has none', () => {
    const result = validateHank(
      rig({ type: 'command', command: { run: 'ls' }, workingDirectory: 'lastCopied' }),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        path: 'hank[0].rigSetup[0].workingDirectory',
        code: 'misplaced_working_directory',
      }),
    ]);
    expect(result.warnings[0]?.message).toContain('move it to command.workingDirectory');
    expect(result.config?.hank[0]).toMatchObject({
      rigSetup: [
        {
          type: 'command',
          command: { run: 'ls', workingDirectory: 'lastCopied' },
          allowFailure: false,
        },
      ],
    });
    expect(
      rigOperationSchema.parse({
        type: 'command',
        command: { run: 'ls' },
        workingDirectory: 'project',
      }),
    ).not.toHaveProperty('workingDirectory');
  });

  it('keeps command.workingDirectory when both are given, and says the outer one is ignored', () => {
    const result = validateHank(
      rig({
        type: 'command',
        command: { run: 'ls', workingDirectory: 'project' },
        workingDirectory: 'lastCopied',
      }),
    );
    expect(result.warnings[0]?.message).toContain('ignored');
    expect(result.config?.hank[0]).toMatchObject({
      rigSetup: [{ command: { run: 'ls', workingDirectory: 'project' } }],
    });
  });

  it('warns in beforeCopy items and in loop codons too', () => {
    const inLoop = {
      type: 'loop',
      id: 'l',
      name: 'L',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      codons: [
        codon({
          id: 'b',
          onFailure: 'ignore',
          outputFiles: [
            {
              copy: ['x'],
              beforeCopy: [
                { type: 'command', command: { run: 'ls' }, workingDirectory: 'project' },
              ],
            },
          ],
        }),
      ],
    };
    const result = validateHank({ hank: [codon(), inLoop] });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toContainEqual(
      issue('hank[1].codons[0].outputFiles[0].beforeCopy[0].workingDirectory'),
    );
  });

  it('still refuses other unknown keys of a command item, with a hint among its own fields', () => {
    const result = validateHank(
      rig({ type: 'command', command: { run: 'ls' }, alowFailure: true }),
    );
    expect(result.errors).toEqual([
      expect.objectContaining({ path: 'hank[0].rigSetup[0].alowFailure', code: 'unknown_field' }),
    ]);
    expect(result.errors[0]?.message).toContain('Did you mean "allowFailure"?');
  });
});

describe('missing required fields', () => {
  it('say what to add', () => {
    const messages = (input: unknown) =>
      Object.fromEntries(validateHank(input).errors.map((e) => [e.path, e.message]));
    expect(messages({})).toEqual({ hank: 'missing — add "hank": [ ...codons ]' });
    const { model: _model, continuationMode: _mode, ...bare } = codon();
    expect(messages({ hank: [bare] })).toEqual({
      'hank[0].model': 'missing — add "model": "<model id>"',
      'hank[0].continuationMode':
        'missing — add "continuationMode": "fresh" (or "continue-previous")',
    });
    expect(messages({ hank: [codon({ rigSetup: [{ command: { run: 'ls' } }] })] })).toEqual({
      'hank[0].rigSetup[0].type': 'missing — add "type": "command" (or "copy")',
    });
    expect(messages({ hank: [{ type: 'loop', id: 'l', name: 'L', codons: [codon()] }] })).toEqual({
      'hank[0].terminateOn':
        'missing — add "terminateOn": { "type": "iterationLimit", "limit": 3 }',
    });
  });

  it(`never surface zod's "received undefined" (FUZZ_RUNS=${FUZZ_RUNS}, FUZZ_SEED=${FUZZ_SEED})`, {
    timeout: fuzzTimeout(),
  }, () => {
    fc.assert(
      fc.property(validHank, fc.nat(), fc.boolean(), (generated, pick, dropMeta) => {
        const hank = cloneData(generated) as Record<string, unknown>;
        if (dropMeta) delete hank.meta;
        const keyed = pathsOf(hank).filter((entry) => typeof entry.path.at(-1) === 'string');
        const target = keyed[pick % keyed.length];
        if (target) {
          const parent = pathsOf(hank).find(
            (entry) => entry.path.join('\0') === target.path.slice(0, -1).join('\0'),
          );
          const object = (parent?.value ?? {}) as Record<string, unknown>;
          delete object[target.path.at(-1) as string];
        }
        const result = validateHank(hank);
        for (const error of result.errors) expect(error.message).not.toMatch(/received undefined/);
        if (result.valid) expect(result.config?.meta.name.length).toBeGreaterThan(0);
      }),
      fuzz(),
    );
  });
});

describe('a sentinel file that is not JSON', () => {
  it('is reported with its line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hank-compat-'));
    try {
      writeFileSync(join(dir, 'watch.json'), '{\n  "id": "watch",\n}\n');
      const result = validateHank(
        { hank: [codon({ sentinels: [{ sentinelConfig: 'watch.json' }] })] },
        { hankDir: dir },
      );
      expect(result.warnings).toEqual([
        {
          path: 'hank[0].sentinels[0].sentinelConfig',
          code: 'invalid_sentinel',
          message:
            '"watch.json" is not valid JSON: line 3, column 1: Expected double-quoted property name',
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the schema alone', () => {
  it('gives a hank without meta the default meta', () => {
    expect(hankConfigSchema.parse({ hank: [codon()] }).meta).toEqual({
      name: 'hank',
      version: '0.0.0',
    });
  });
});
