import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, runCli, type Sandbox } from './cli-harness.js';

// `-o/--output` on the built binary with a dry run (reference §1.6, §2.2): one codon of the example
// writes notes/observations.md; its outputFiles copy it (and a file a beforeCopy command made) into
// the output directory, a relative path resolved against the cwd.
describe('hankweave -o', () => {
  let sandbox: Sandbox;
  let example: ReturnType<Sandbox['copyExample']>;

  beforeAll(() => {
    sandbox = createSandbox();
    example = sandbox.copyExample();
    const hank = JSON.parse(readFileSync(join(example.hankDir, 'hank.json'), 'utf8'));
    const observe = hank.hank[0];
    observe.outputFiles = [
      {
        beforeCopy: [
          {
            type: 'command',
            command: { run: 'printf stamped > notes/stamp.txt', workingDirectory: 'project' },
          },
        ],
        copy: ['notes/**/*.md', 'notes/stamp.txt'],
      },
    ];
    hank.hank = [observe];
    writeFileSync(join(example.hankDir, 'hank.json'), JSON.stringify(hank, null, 2));
  });
  afterAll(() => sandbox.cleanup());

  it('validate -o warns when the output directory is not empty, and only then', async () => {
    const warningsFor = async (dir: string) => {
      const result = await runCli(['validate', example.hankDir, '--json', '-o', dir], {
        env: sandbox.env,
        cwd: sandbox.root,
      });
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout).warnings as { code: string; message: string }[]).filter(
        (warning) => warning.code === 'output_directory_not_empty',
      );
    };
    mkdirSync(join(sandbox.root, 'full'), { recursive: true });
    writeFileSync(join(sandbox.root, 'full/old.txt'), 'old');
    mkdirSync(join(sandbox.root, 'empty'), { recursive: true });
    const full = await warningsFor('full');
    expect(full).toHaveLength(1);
    expect(full[0]?.message).toContain(join(sandbox.root, 'full'));
    expect(await warningsFor('empty')).toEqual([]);
    expect(await warningsFor('missing')).toEqual([]);
  });

  it('copies the outputs into the directory, renaming a taken name', async () => {
    mkdirSync(join(sandbox.root, 'results/notes'), { recursive: true });
    writeFileSync(join(sandbox.root, 'results/notes/stamp.txt'), 'already here');
    const run = await runCli(
      [
        example.hankDir,
        example.dataDir,
        '--scripted-model',
        example.script,
        '--start-new',
        '-o',
        'results',
      ],
      { env: sandbox.env, cwd: sandbox.root },
    );
    expect(run.code).toBe(0);
    const notes = readdirSync(join(sandbox.root, 'results/notes')).sort();
    expect(notes).toContain('observations.md');
    expect(notes).toContain('stamp.txt');
    const renamed = notes.filter((name) => /^stamp_1_\d+\.txt$/.test(name));
    expect(renamed).toHaveLength(1);
    expect(readFileSync(join(sandbox.root, 'results/notes/stamp.txt'), 'utf8')).toBe(
      'already here',
    );
    expect(readFileSync(join(sandbox.root, 'results/notes', renamed[0] ?? ''), 'utf8')).toBe(
      'stamped',
    );
    expect(readFileSync(join(sandbox.root, 'results/notes/observations.md'), 'utf8')).toMatch(
      /^# Observations/,
    );
  });
});
