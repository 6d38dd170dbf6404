import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@hankweave/durable-io/testing';
import { describe, expect, it } from 'vitest';
import { createTerminal } from '../output/terminal.js';
import { buildProgram } from '../program.js';
import { COMPLETION_SHELLS, completionScript } from './completion.js';

const program = buildProgram(createTerminal(), '0.0.0', () => {});
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

  it('completes subcommands and flags when bash runs it', () => {
    const script = completionScript(program, 'bash');
    const run = (line: string) => {
      const words = line.split(' ');
      const probe = `${script}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_hankweave_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return spawnSync('bash', ['-c', probe], { encoding: 'utf8', cwd: '/' }).stdout.split('\n');
    };
    expect(run('hankweave stat')).toContain('status');
    expect(run('hankweave rollback --')).toContain('--execution');
    expect(run('hankweave --scr')).toContain('--scripted-model');
    // `list` and `executions` only point at `sessions`: hidden, so not offered.
    expect(run('hankweave lis')).not.toContain('list');
    expect(run('hankweave executi')).not.toContain('executions');
  });
});
