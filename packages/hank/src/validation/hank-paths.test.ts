import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateHank } from '../index.js';

const codon = (extra: Record<string, unknown> = {}) => ({
  id: 'a',
  name: 'A',
  model: 'sonnet',
  continuationMode: 'fresh',
  promptText: 'Do it',
  ...extra,
});
const hank = (items: unknown[]) => ({ meta: { name: 'demo', version: '1.0.0' }, hank: items });
const sentinel = (extra: Record<string, unknown> = {}) => ({
  id: 'watch',
  name: 'Watch',
  model: 'anthropic/claude-haiku-4-5',
  trigger: { type: 'event', on: ['assistant.action'] },
  execution: { strategy: 'immediate' },
  userPromptText: 'x',
  ...extra,
});
/** The errors of a one-codon hank, as `path code` strings. */
const errorsOf = (extra: Record<string, unknown>, hankDir?: string) =>
  validateHank(hank([codon(extra)]), hankDir === undefined ? {} : { hankDir }).errors.map(
    (issue) => `${issue.path} ${issue.code}`,
  );

describe('validateHank() paths under agentRoot', () => {
  const copyTo = (to: string) => ({ rigSetup: [{ type: 'copy', copy: { from: 'x', to } }] });
  const at = 'hank[0].rigSetup[0].copy.to';

  it.each([
    ['../../../tmp/evil', 'escapes_agent_root'],
    ['..', 'escapes_agent_root'],
    ['a/../../b', 'escapes_agent_root'],
    ['/etc/passwd', 'invalid_path'],
    ['C:/Windows', 'invalid_path'],
    ['a\\..\\..\\b', 'invalid_path'],
    ['.', 'invalid_path'],
    ['a/..', 'invalid_path'],
    ['read_only_data_source/notes.md', 'invalid_path'],
    ['READ_ONLY_DATA_SOURCE', 'invalid_path'],
    ['', 'invalid_value'],
  ])('refuses the copy target %j with %s', (to, code) => {
    expect(errorsOf(copyTo(to))).toEqual([`${at} ${code}`]);
  });

  it.each(['templates', 'a/b/c.txt', 'a/../b', './x', '..foo'])(
    'accepts the copy target %j',
    (to) => {
      expect(errorsOf(copyTo(to))).toEqual([]);
    },
  );

  it('says what to write instead', () => {
    const [issue] = validateHank(hank([codon(copyTo('../../../tmp/evil'))])).errors;
    expect(issue?.message).toBe(
      '"../../../tmp/evil" climbs out of agentRoot; write the target relative to agentRoot, without ".."',
    );
  });

  it('allows only the two named working directories for rig commands', () => {
    const rig = (workingDirectory: string) => ({
      rigSetup: [{ type: 'command', command: { run: 'ls', workingDirectory } }],
    });
    expect(errorsOf(rig('lastCopied'))).toEqual([]);
    expect(errorsOf(rig('../..'))).toEqual([
      'hank[0].rigSetup[0].command.workingDirectory invalid_value',
    ]);
  });

  it.each([
    ['**/*.md', undefined],
    ['!node_modules/**', undefined],
    ['src/../docs/**', undefined],
    ['/etc/**', 'invalid_path'],
    ['../sibling/**', 'escapes_agent_root'],
    ['!../sibling/**', 'escapes_agent_root'],
    ['**/../../x', 'escapes_agent_root'],
    ['!', 'invalid_path'],
  ])('checks the tracked pattern %j', (pattern, code) => {
    for (const field of ['checkpointedFiles', 'trackedFiles']) {
      expect(errorsOf({ [field]: [pattern] })).toEqual(code ? [`hank[0].${field}[0] ${code}`] : []);
    }
  });

  it('checks outputFiles globs and their commands', () => {
    const outputs = (copy: string[], workingDirectory = 'project') => ({
      outputFiles: [{ copy, beforeCopy: [{ run: 'make', workingDirectory }] }],
    });
    expect(errorsOf(outputs(['dist/**', 'report.md']))).toEqual([]);
    expect(errorsOf(outputs(['../secrets/**', '/etc/hosts']))).toEqual([
      'hank[0].outputFiles[0].copy[0] escapes_agent_root',
      'hank[0].outputFiles[0].copy[1] invalid_path',
    ]);
    expect(errorsOf(outputs(['x'], '/'))).toEqual([
      'hank[0].outputFiles[0].beforeCopy[0].workingDirectory invalid_value',
    ]);
  });

  it('checks progressFile paths of codons and loops, and refuses one on a codon of such a loop', () => {
    expect(errorsOf({ progressFile: true })).toEqual([]);
    expect(errorsOf({ progressFile: { verify: 'npm test' } })).toEqual([]);
    expect(errorsOf({ progressFile: 'notes/progress.txt' })).toEqual([]);
    expect(errorsOf({ progressFile: '../outside.txt' })).toEqual([
      'hank[0].progressFile escapes_agent_root',
    ]);
    expect(errorsOf({ progressFile: { path: 'read_only_data_source/p.txt' } })).toEqual([
      'hank[0].progressFile.path invalid_path',
    ]);
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'L',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      progressFile: '/abs.txt',
      codons: [codon({ onFailure: 'ignore', progressFile: true })],
    };
    expect(validateHank(hank([loop])).errors.map((issue) => `${issue.path} ${issue.code}`)).toEqual(
      ['hank[0].codons[0].progressFile exclusive_fields', 'hank[0].progressFile invalid_path'],
    );
  });

  it('checks archiveOnSuccess of codons and of loops (loops were not checked)', () => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'L',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      codons: [codon({ onFailure: 'ignore', archiveOnSuccess: ['/abs'] })],
      archiveOnSuccess: ['../up', 'fine/**', 'read_only_data_source/**'],
    };
    expect(validateHank(hank([loop])).errors.map((issue) => issue.path)).toEqual([
      'hank[0].archiveOnSuccess[0]',
      'hank[0].archiveOnSuccess[2]',
      'hank[0].codons[0].archiveOnSuccess[0]',
    ]);
  });

  it.each([
    ['read_only_data_source/**', 'invalid_path'],
    ['./read_only_data_source/notes.md', 'invalid_path'],
    ['src/../Read_Only_Data_Source/*.csv', 'invalid_path'],
    ['**/read_only_data_source/**', 'invalid_path'],
    ['{read_only_data_source,out}/**', 'invalid_path'],
    ['!read_only_data_source/**', undefined],
    ['read_only_data_source_notes/**', undefined],
    ['out/data/**', undefined],
  ])("refuses an outputFiles glob that takes the user's data: %j", (glob, code) => {
    expect(errorsOf({ outputFiles: [{ copy: ['report.md', glob] }] })).toEqual(
      code ? [`hank[0].outputFiles[0].copy[1] ${code}`] : [],
    );
  });

  it.each([
    'read_only_data_source/**',
    './read_only_data_source/raw.csv',
    'READ_ONLY_DATA_SOURCE',
    '**/read_only_data_source/*',
    '{read_only_data_source,out}/**',
  ])('refuses the archive glob %j of a codon and of a loop', (glob) => {
    const loop = {
      type: 'loop',
      id: 'l',
      name: 'L',
      terminateOn: { type: 'iterationLimit', limit: 2 },
      codons: [codon({ onFailure: 'ignore', archiveOnSuccess: [glob] })],
      archiveOnSuccess: ['drafts/**', glob],
    };
    expect(validateHank(hank([loop])).errors.map((issue) => `${issue.path} ${issue.code}`)).toEqual(
      [
        'hank[0].archiveOnSuccess[1] invalid_path',
        'hank[0].codons[0].archiveOnSuccess[0] invalid_path',
      ],
    );
  });

  it('says why the data link is refused and what to write instead', () => {
    const messages = validateHank(
      hank([
        codon({
          outputFiles: [{ copy: ['read_only_data_source/**'] }],
          archiveOnSuccess: ['read_only_data_source/*.csv'],
          rigSetup: [{ type: 'copy', copy: { from: 'x', to: 'read_only_data_source/x' } }],
        }),
      ]),
    ).errors.map((issue) => issue.message);
    expect(messages).toEqual([
      '"read_only_data_source/x" writes into read_only_data_source, the user\'s data; copy to another place in agentRoot',
      '"read_only_data_source/**" takes files from read_only_data_source, the user\'s own data, which outputs never copy; name the files the codons write elsewhere in agentRoot',
      '"read_only_data_source/*.csv" takes files from read_only_data_source: archiving moves files, which would delete the user\'s data; archive the files the codons write elsewhere in agentRoot',
    ]);
  });

  it.each([
    ['log.md', undefined],
    ['reports/log.md', undefined],
    ['../rigArchive/log.md', undefined],
    ['..', 'invalid_path'],
    ['/tmp/log.md', 'invalid_path'],
    ['../../log.md', 'escapes_agent_root'],
    ['../.hankweave/state.json', 'invalid_path'],
    ['x/../../.HANKWEAVE/runtime.lock', 'invalid_path'],
    ['read_only_data_source/log.md', 'invalid_path'],
    ['../agentRoot/read_only_data_source/log.md', 'invalid_path'],
    ['../agentRoot', 'invalid_path'],
  ])('checks the sentinel output path %j', (file, code) => {
    const inline = errorsOf({
      sentinels: [{ sentinelConfig: sentinel({ output: { format: 'text', file } }) }],
    });
    expect(inline).toEqual(code ? [`hank[0].sentinels[0].sentinelConfig.output.file ${code}`] : []);
    const settings = errorsOf({
      sentinels: [
        { sentinelConfig: sentinel(), settings: { outputPaths: { lastValueFile: file } } },
      ],
    });
    expect(settings).toEqual(
      code ? [`hank[0].sentinels[0].settings.outputPaths.lastValueFile ${code}`] : [],
    );
  });
});

describe('validateHank() file references without a hank directory', () => {
  it('refuses absolute and climbing references lexically', () => {
    const result = validateHank(
      hank([
        codon({
          promptText: undefined,
          promptFile: ['ok.md', '/etc/passwd', '../up.md'],
          appendSystemPromptFile: 'a/../../b.md',
          rigSetup: [{ type: 'copy', copy: { from: '.', to: 'all' } }],
          sentinels: [
            { sentinelConfig: '../s.json' },
            {
              sentinelConfig: sentinel({
                id: 'b',
                userPromptText: undefined,
                userPromptFile: '/u',
              }),
            },
            { sentinelConfig: '/s.json', settings: { failCodonIfNotLoaded: true } },
          ],
        }),
      ]),
    );
    const where = (issues: { path: string; code: string }[]) =>
      issues.map((issue) => `${issue.path} ${issue.code}`);
    expect(where(result.errors)).toEqual([
      'hank[0].promptFile[1] invalid_path',
      'hank[0].promptFile[2] escapes_hank',
      'hank[0].appendSystemPromptFile escapes_hank',
      'hank[0].rigSetup[0].copy.from invalid_path',
      'hank[0].sentinels[1].sentinelConfig.userPromptFile invalid_path',
      'hank[0].sentinels[2].sentinelConfig invalid_path',
    ]);
    // A sentinel file that cannot load is a warning unless the codon asks to fail (as on disk).
    expect(where(result.warnings)).toEqual(['hank[0].sentinels[0].sentinelConfig escapes_hank']);
  });
});

describe('validateHank() sentinel files on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hank-paths-'));
    mkdirSync(join(dir, 'sentinels'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reports each reference once when the disk is checked', () => {
    expect(errorsOf({ promptText: undefined, promptFile: '../up.md' }, dir)).toEqual([
      'hank[0].promptFile escapes_hank',
    ]);
  });

  it('checks the output paths a sentinel file names, as a load problem', () => {
    const file = 'sentinels/s.json';
    writeFileSync(
      join(dir, file),
      JSON.stringify(sentinel({ output: { format: 'text', file: '../../evil.md' } })),
    );
    const entry = (failCodonIfNotLoaded: boolean) =>
      validateHank(
        hank([
          codon({ sentinels: [{ sentinelConfig: file, settings: { failCodonIfNotLoaded } }] }),
        ]),
        {
          hankDir: dir,
        },
      );
    expect(entry(false).valid).toBe(true);
    expect(entry(false).warnings).toMatchObject([
      { path: `${file}: output.file`, code: 'escapes_agent_root' },
    ]);
    expect(entry(true).errors).toMatchObject([
      { path: `${file}: output.file`, code: 'escapes_agent_root' },
    ]);
  });

  it('refuses a hostile sentinel file with one issue', () => {
    let deep = '"x"';
    for (let level = 0; level < 5000; level++) deep = `{"schema":${deep}}`;
    writeFileSync(join(dir, 'sentinels/deep.json'), deep);
    writeFileSync(join(dir, 'sentinels/big.json'), `"${'x'.repeat(2_000_000)}"`);
    writeFileSync(
      join(dir, 'sentinels/proto.json'),
      JSON.stringify(sentinel()).replace('{', '{"__proto__":1,'),
    );
    const result = validateHank(
      hank([
        codon({
          sentinels: ['deep', 'big', 'proto'].map((name) => ({
            sentinelConfig: `sentinels/${name}.json`,
            settings: { failCodonIfNotLoaded: true },
          })),
        }),
      ]),
      { hankDir: dir },
    );
    expect(result.errors.map((issue) => `${issue.path} ${issue.code}`)).toEqual([
      expect.stringMatching(/^sentinels\/deep\.json: schema(\.schema)+ too_deep$/),
      'hank[0].sentinels[1].sentinelConfig too_large',
      'sentinels/proto.json: __proto__ unknown_field',
    ]);
  });
});
