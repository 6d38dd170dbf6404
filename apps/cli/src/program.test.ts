import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE, commandsFor, SUGGESTED_WORDS } from './commands/command-table.js';
import { createTerminal } from './output/terminal.js';
import { buildProgram } from './program.js';

const words = (entries: readonly { words: readonly string[] }[]) =>
  entries.map((entry) => entry.words[0]);

describe('the command table', () => {
  it('names every command the modules register, in help order, with their aliases', async () => {
    const program = await buildProgram(createTerminal(), '0.0.0', () => {});
    expect(program.commands.flatMap((command) => [command.name(), ...command.aliases()])).toEqual(
      COMMAND_TABLE.flatMap((entry) => entry.words),
    );
  });

  it('suggests only the commands help shows', async () => {
    const program = await buildProgram(createTerminal(), '0.0.0', () => {});
    const shown = program
      .createHelp()
      .visibleCommands(program)
      .flatMap((command) => [command.name(), ...command.aliases()])
      .filter((word) => word !== 'help');
    expect([...SUGGESTED_WORDS].sort()).toEqual(shown.sort());
  });
});

describe('commandsFor()', () => {
  it('loads nothing more for the run itself, --version and --attach', () => {
    expect(commandsFor(['my-hank', 'data', '--port', '0'])).toEqual([]);
    expect(commandsFor(['--version'])).toEqual([]);
    expect(commandsFor(['--attach', '-e', 'some/dir'])).toEqual([]);
  });

  it('loads the one command a line names, by name or alias', () => {
    expect(words(commandsFor(['status', '-e', 'x']))).toEqual(['status']);
    expect(words(commandsFor(['ls', '--all']))).toEqual(['sessions']);
    expect(words(commandsFor(['events', '--help']))).toEqual(['events']);
  });

  it('loads every command for a bare hankweave, the program help, help, completion, or two command words', () => {
    for (const args of [
      // A bare hankweave off a terminal prints the usage, which lists every command.
      [],
      ['--help'],
      ['-h'],
      ['help'],
      ['help', 'status'],
      ['completion', 'bash'],
      ['__complete', 'sessions'],
      // `-e status` makes "status" an option's value; the loader cannot tell, so it loads all.
      ['-e', 'status', 'events'],
    ]) {
      expect(commandsFor(args)).toBe(COMMAND_TABLE);
    }
  });
});
