import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadHank, RuntimeError } from '@hankweave/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliResult,
  createSandbox,
  executionDirOf,
  runCli,
  type Sandbox,
} from './cli-harness.js';

// hank.json files in the shapes the original runtime accepts (issue 17), validated and run offline
// on the scripted model with the built binary. Fixtures: test/fixtures/original-hanks/, one folder
// per shape, one model script for all.

const FIXTURES = fileURLToPath(new URL('./fixtures/original-hanks/', import.meta.url));

interface Shape {
  /** The hank argument, relative to the fixtures. */
  hank: string;
  /** The name a run prints: from meta, or from the file or folder. */
  name: string;
  version: string;
  /** `path code` of every validate warning, in order. */
  warnings: string[];
  codons: string[];
}

const SHAPES: Shape[] = [
  { hank: 'no-meta', name: 'no-meta', version: '0.0.0', warnings: [], codons: ['greet'] },
  {
    hank: 'before-copy/before-copy.json',
    name: 'before-copy',
    version: '0.0.0',
    warnings: [],
    codons: ['report'],
  },
  {
    hank: 'legacy-before-copy',
    name: 'legacy-before-copy',
    version: '0.3.0',
    warnings: ['hank[0].outputFiles[0].beforeCopy[0] deprecated_before_copy'],
    codons: ['report'],
  },
  {
    hank: 'rig-working-directory',
    name: 'rig-working-directory',
    version: '1.0.0',
    warnings: ['hank[0].rigSetup[1].workingDirectory misplaced_working_directory'],
    codons: ['inspect'],
  },
  {
    hank: 'loop',
    name: 'loop',
    version: '0.0.0',
    warnings: [],
    codons: ['start', 'append#0', 'append#1'],
  },
  {
    hank: 'prompt-files',
    name: 'prompt-files',
    version: '0.0.0',
    warnings: [],
    codons: ['compose'],
  },
];

describe('hanks written for the original runtime', () => {
  let sandbox: Sandbox;
  let root: string;
  const runs = new Map<string, CliResult>();
  const at = (hank: string) => join(root, hank);
  const cli = (...args: string[]) => runCli(args, { env: sandbox.env });

  beforeAll(async () => {
    sandbox = createSandbox();
    root = join(sandbox.root, 'original-hanks');
    cpSync(FIXTURES, root, { recursive: true });
    // Every shape runs once, all at the same time: each is a short dry run on its own execution.
    const results = await Promise.all(
      SHAPES.map((shape) =>
        cli(at(shape.hank), at('data'), '--scripted-model', at('model-script.json'), '--start-new'),
      ),
    );
    for (const [index, shape] of SHAPES.entries())
      runs.set(shape.hank, results[index] as CliResult);
  });
  afterAll(() => sandbox.cleanup());

  it('validates each shape, with exactly the expected warnings', async () => {
    const results = await Promise.all(
      SHAPES.map((shape) => cli('validate', at(shape.hank), '--json')),
    );
    for (const [index, shape] of SHAPES.entries()) {
      const result = results[index] as CliResult;
      expect(result.code, shape.hank).toBe(0);
      const json = JSON.parse(result.stdout);
      expect(json).toMatchObject({ valid: true, errors: [] });
      expect(
        json.warnings.map(
          (warning: { path: string; code: string }) => `${warning.path} ${warning.code}`,
        ),
        shape.hank,
      ).toEqual(shape.warnings);
    }
  });

  it('names a hank without meta after its folder or file, and prints nothing about it', async () => {
    const result = await cli('validate', at('no-meta'));
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('no-meta 0.0.0');
    expect(result.stdout).not.toContain('!');
    expect(result.stderr).toBe('');
  });

  it('runs each shape offline to the end', () => {
    for (const shape of SHAPES) {
      const run = runs.get(shape.hank) as CliResult;
      expect(run.code, `${shape.hank}\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain(`hankweave · ${shape.name} ${shape.version} ·`);
      expect(run.stdout).toContain(`✓ ${shape.name}: all codons completed`);
      const state = JSON.parse(
        readFileSync(join(executionDirOf(run.stdout), '.hankweave', 'state.json'), 'utf8'),
      );
      expect(
        state.runs[0].codons.map(
          (codon: { codonId: string; status: string }) => `${codon.codonId}:${codon.status}`,
        ),
      ).toEqual(shape.codons.map((codon) => `${codon}:completed`));
    }
  });

  it('warns on a run only about the deprecated shapes and what is not in effect', () => {
    expect(runs.get('legacy-before-copy')?.stderr).toMatch(
      /hank\[0\]\.outputFiles\[0\]\.beforeCopy\[0\]: .*"type":"command","command":\{"run":"wc -l report\.md"\}/,
    );
    expect(runs.get('rig-working-directory')?.stderr).toContain(
      'move it to command.workingDirectory',
    );
    for (const shape of ['no-meta', 'before-copy/before-copy.json', 'loop', 'prompt-files'])
      expect(runs.get(shape)?.stderr, shape).toBe('');
  });

  it('honours a workingDirectory written beside command', () => {
    // `ls` ran in the copied notes/ (lastCopied), not in agentRoot, where it would list notes.
    const run = runs.get('rig-working-directory')?.stdout ?? '';
    expect(run).toMatch(/ inspect\s+rig stdout: README\.md$/m);
    expect(run).not.toMatch(/rig stdout: notes$/m);
  });

  it('builds the prompt from every prompt file', () => {
    // The script answers only a request that holds the second file's text.
    const run = runs.get('prompt-files') as CliResult;
    expect(run.stdout).toMatch(/ compose\s+created out\.md$/m);
    expect(run.stderr).not.toContain('could not answer');
  });

  describe('a hank.json that is not JSON', () => {
    const broken =
      '{\n  "hank": [\n    { "id": "a", "name": "A",\n\t"model": "sonnet", }\n  ]\n}\n';
    let dir: string;
    beforeAll(() => {
      dir = join(sandbox.root, 'broken');
      cpSync(join(root, 'no-meta'), dir, { recursive: true });
      writeFileSync(join(dir, 'hank.json'), broken);
    });
    const location = () => `${join(dir, 'hank.json')}:4:21: Expected double-quoted property name`;
    // The caret line keeps the tab, so the caret stands under the `}` in any tab width.
    const excerpt = `\t"model": "sonnet", }\n\t${' '.repeat(19)}^`;

    it('validate names the line and column and shows the line with a caret', async () => {
      const result = await cli('validate', dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Error: ${location()}\n${excerpt}\n`);
      expect(result.stderr).toContain('Fix the JSON syntax');
    });

    it('validate --json keeps its shape, with one invalid_json error that carries where', async () => {
      const result = await cli('validate', dir, '--json');
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({
        hankPath: join(dir, 'hank.json'),
        // Added with remote hanks (issue 35): where the hank came from.
        hankSource: { kind: 'path', path: join(dir, 'hank.json') },
        valid: false,
        errors: [
          {
            path: '(root)',
            code: 'invalid_json',
            message: 'Expected double-quoted property name',
            line: 4,
            column: 21,
            excerpt,
          },
        ],
        warnings: [],
      });
    });

    it('a run says the same and creates nothing', async () => {
      const before = existsSync(sandbox.baseDir) ? readdirSync(sandbox.baseDir).length : 0;
      const result = await cli(dir, at('data'), '--scripted-model', at('model-script.json'));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${location()}\n${excerpt}\n`);
      // Nothing is "listed above" for a syntax error: the JSON hint, not the fields one.
      expect(result.stderr).not.toContain('fields listed above');
      expect(existsSync(sandbox.baseDir) ? readdirSync(sandbox.baseDir).length : 0).toBe(before);
    });

    it("the runtime's loadHank reports it with the location in details", () => {
      let thrown: unknown;
      try {
        loadHank({ hankPath: join(dir, 'hank.json') });
      } catch (error) {
        thrown = error;
      }
      expect(RuntimeError.is(thrown, 'RUNTIME_INVALID_HANK')).toBe(true);
      const error = thrown as RuntimeError;
      // The runtime's message quotes nothing of the file (issue 31): it travels in job errors.
      expect(error.message).toBe(location());
      expect(error.details).toMatchObject({
        hankPath: join(dir, 'hank.json'),
        line: 4,
        column: 21,
      });
      expect((error.details as { errors: unknown[] }).errors).toHaveLength(1);
    });
  });

  it('a run refused for its fields lists every field above the hint', async () => {
    const dir = join(sandbox.root, 'no-model');
    cpSync(join(root, 'no-meta'), dir, { recursive: true });
    const hank = JSON.parse(readFileSync(join(dir, 'hank.json'), 'utf8'));
    delete hank.hank[0].model;
    writeFileSync(join(dir, 'hank.json'), JSON.stringify(hank));
    const result = await cli(dir, at('data'), '--scripted-model', at('model-script.json'));
    expect(result.code).toBe(1);
    const listed = result.stderr.indexOf('hank[0].model: missing — add "model": "<model id>"');
    const hint = result.stderr.indexOf('Fix the fields listed above');
    expect(listed).toBeGreaterThan(-1);
    expect(hint).toBeGreaterThan(listed);
    expect(result.stderr).not.toContain('received undefined');
  });
});
