import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { createTerminal } from '../output/terminal.js';
import { buildProgram } from '../program.js';
import { COMPLETION_SHELLS, completionScript } from './completion.js';

const program = await buildProgram(createTerminal(), '0.0.0', () => {});
const subcommands = ['validate', 'init', 'status', 'events', 'checkpoints', 'diff', 'rollback'];
const more = ['sessions', 'ls', 'kill', 'prune', 'completion'];

/** Whether `shell` is installed here (zsh and fish often are not). */
const installed = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;

describe('completionScript()', () => {
  it.each(COMPLETION_SHELLS)('lists every visible subcommand and flag for %s', (shell) => {
    const script = completionScript(program, shell);
    for (const name of [...subcommands, ...more]) expect(script).toContain(name);
    expect(script).toContain('scripted-model');
    expect(script).toContain('older-than');
  });

  for (const shell of COMPLETION_SHELLS) {
    // bash is always here; zsh and fish are checked where they are installed.
    it.skipIf(!installed(shell))(`is a script ${shell} accepts (${shell} -n)`, async () => {
      await using dir = await makeTempDir('hankweave-completion-');
      const file = join(dir.path, `completion.${shell}`);
      writeFileSync(file, completionScript(program, shell));
      const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    });
  }

  /** The words bash offers for `line` (the cursor at its end), with `hankweave` defined as `stub`. */
  const complete = (line: string, stub = 'hankweave() { :; }') => {
    const script = completionScript(program, 'bash');
    const words = line.split(' ');
    const probe = `${script}
${stub}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_hankweave_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return spawnSync('bash', ['-c', probe], { encoding: 'utf8', cwd: '/' })
      .stdout.split('\n')
      .filter((word) => word !== '');
  };

  it('completes subcommands and flags when bash runs it', () => {
    expect(complete('hankweave stat')).toContain('status');
    expect(complete('hankweave rollback --')).toContain('--execution');
    expect(complete('hankweave --scr')).toContain('--scripted-model');
    // `list` and `executions` only point at `sessions`: hidden, so not offered.
    expect(complete('hankweave lis')).not.toContain('list');
    expect(complete('hankweave executi')).not.toContain('executions');
    expect(complete('hankweave __compl')).toEqual([]);
  });

  it('completes the values a definition names, not file names (run from /, full of files)', () => {
    expect(complete('hankweave completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('hankweave events --type codon.c')).toEqual(['codon.completed']);
    expect(complete('hankweave events -t codon.st')).toEqual(['codon.started']);
    // A comma-separated list completes its last part.
    expect(complete('hankweave events --type codon.started,codon.c')).toEqual([
      'codon.started,codon.completed',
    ]);
    expect(complete('hankweave events --type rig.')).toContain('rig.*');
    expect(complete('hankweave checkpoints --type ')).toEqual([
      'rig-setup',
      'completed',
      'error',
      'skipped',
      'exit',
    ]);
    expect(complete('hankweave sessions --status ki')).toEqual(['killed']);
    expect(complete('hankweave jobs --status fa')).toEqual(['failed']);
    // A flag without listed values still completes files; so does the hank argument.
    expect(complete('hankweave --data tm')).toContain('tmp');
    expect(complete('hankweave tm')).toContain('tmp');
    expect(complete('hankweave completion bash --')).toEqual(['--help']);
  });

  it('asks `hankweave __complete` for codon ids, passing the words typed so far', () => {
    // A stand-in that shows what it was asked, as the values it returns.
    const stub = `hankweave() { local IFS=_; printf '%s\\n' "asked:$*" observe summarize; }`;
    expect(complete('hankweave events -e /x/run --codon ', stub)).toEqual([
      'asked:__complete_codons_--_events_-e_/x/run_--codon',
      'observe',
      'summarize',
    ]);
    expect(complete('hankweave rollback s', stub)).toEqual(['summarize']);
    expect(complete('hankweave diff observe s', stub)).toEqual(['summarize']);
    expect(complete('hankweave checkpoints --run ', stub)[0]).toBe(
      'asked:__complete_runs_--_checkpoints_--run',
    );
    expect(complete('hankweave kill ', stub)[0]).toBe('asked:__complete_sessions_--_kill');
  });
});
