import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import * as prompts from '@clack/prompts';
import { listCopyTree } from '@hankweave/files';
import { validateHank, withModelOverride } from '@hankweave/hank';
import { installedHarnesses } from '@hankweave/runtime';
import { checkModelId, defaultModelCatalog } from '@hankweave/types';
import { readHankJsonText } from '../commands/load-hank.js';
import type { RunOptions } from '../commands/run-flags.js';
import { printStructure } from '../commands/validate.js';
import { writeSampleHank } from '../init/write-sample-hank.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { printable } from '../output/printable.js';
import type { Terminal } from '../output/terminal.js';
import { findHanks } from './find-hanks.js';

/** What the interactive start decided: a run (with the command it stands for), or to stop. */
export type StartDecision =
  | { kind: 'run'; positionals: string[]; options: RunOptions; command: string }
  | { kind: 'stop'; code: number };

/** The model ids offered for a real run with another model (those an installed agent runs). */
const MODEL_CHOICES = ['sonnet', 'opus', 'haiku', 'gpt-5.2', 'gemini-3-pro-preview'];

class Cancelled extends Error {}

/** The answer of a prompt; Ctrl-C or Escape ends the start (nothing has been run). */
async function answer<T>(pending: Promise<T>): Promise<Exclude<T, symbol>> {
  const value = await pending;
  if (prompts.isCancel(value)) throw new Cancelled();
  return value as Exclude<T, symbol>;
}

/** `path` as typed in a command from `cwd`: relative when inside it. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/**
 * A bare `hankweave` on a terminal (the original's welcome): pick a hank near here or create
 * the sample one, choose its data, a model or the offline dry run, see the validation, then run.
 * Every step shows what it stands for on the command line, so the next time needs no prompts.
 */
export async function interactiveStart(
  terminal: Terminal,
  cwd: string = process.cwd(),
): Promise<StartDecision> {
  prompts.intro('hankweave: run a hank, a program of coding-agent codons');
  try {
    const hankDir = await chooseHank(cwd);
    const data = await chooseData(hankDir, cwd);
    const model = await chooseModel(hankDir, cwd);
    if (!validate(terminal, hankDir, model.model)) {
      prompts.outro(
        `Fix the fields above in ${join(shown(hankDir, cwd), 'hank.json')}, then start again (${commandHint('validate', shellArg(shown(hankDir, cwd)))} checks it).`,
      );
      return { kind: 'stop', code: 1 };
    }
    const positionals = [shown(hankDir, cwd), shown(data, cwd)];
    const options: RunOptions = {
      ...(model.script ? { scriptedModel: shown(model.script, cwd) } : {}),
      ...(model.model ? { model: model.model } : {}),
    };
    const command = commandHint(
      ...positionals.map(shellArg),
      ...(options.scriptedModel ? ['--scripted-model', shellArg(options.scriptedModel)] : []),
      ...(options.model ? ['--model', options.model] : []),
    );
    prompts.note(command, 'The same run as a command');
    if (!(await answer(prompts.confirm({ message: 'Run it now?', initialValue: true })))) {
      prompts.outro('Nothing ran. The command above runs it whenever you want.');
      return { kind: 'stop', code: 0 };
    }
    prompts.outro(`Running ${printable(positionals[0] as string)}…`);
    return { kind: 'run', positionals, options, command };
  } catch (error) {
    if (!(error instanceof Cancelled)) throw error;
    prompts.cancel('Cancelled: nothing ran.');
    return { kind: 'stop', code: 0 };
  }
}

async function chooseHank(cwd: string): Promise<string> {
  const found = findHanks(cwd);
  const NEW = '\u0000new';
  const OTHER = '\u0000other';
  const choice = await answer(
    prompts.select<string>({
      message: 'Which hank?',
      options: [
        ...found.map((hank) => ({
          value: hank.dir,
          label: `${printable(hank.name)}  ${shown(hank.dir, cwd) === '.' ? '(here)' : `(${printable(shown(hank.dir, cwd))})`}`,
          hint: [
            hank.codons === undefined ? undefined : `${hank.codons} codon(s)`,
            hank.script ? 'runs offline on its model script' : undefined,
          ]
            .filter(Boolean)
            .join(', '),
        })),
        {
          value: NEW,
          label: 'Create a sample hank',
          hint: 'two codons, sample data and a model script: it runs offline at once',
        },
        { value: OTHER, label: 'Another hank…', hint: 'a hank.json, or the folder holding one' },
      ],
    }),
  );
  if (choice === NEW) {
    const folder = await answer(
      prompts.text({
        message: 'Folder for the new hank',
        initialValue: freeName(cwd),
        validate: (value) => {
          const path = resolve(cwd, value ?? '');
          if (!value) return 'Name a folder';
          if (existsSync(path) && (!statSync(path).isDirectory() || readdirSync(path).length > 0))
            return `${value} exists and is not an empty folder`;
          return undefined;
        },
      }),
    );
    const dir = resolve(cwd, folder);
    const files = writeSampleHank(dir);
    prompts.log.success(
      `Created ${shown(dir, cwd)}/: ${files.join(', ')}. Edit its prompts later; \`${commandHint('init', '<dir>')}\` makes another.`,
    );
    return dir;
  }
  if (choice === OTHER) {
    const path = await answer(
      prompts.text({
        message: 'Path of the hank (hank.json, or its folder)',
        validate: (value) => {
          const target = resolve(cwd, value ?? '');
          if (!value || !existsSync(target)) return 'No such file or folder';
          const file = statSync(target).isDirectory() ? join(target, 'hank.json') : target;
          return existsSync(file) ? undefined : `${value} holds no hank.json`;
        },
      }),
    );
    const target = resolve(cwd, path);
    return statSync(target).isDirectory() ? target : resolve(target, '..');
  }
  return choice;
}

/** `my-hank`, or `my-hank-2` ... when taken. */
function freeName(cwd: string): string {
  for (let index = 1; ; index++) {
    const name = index === 1 ? 'my-hank' : `my-hank-${index}`;
    if (!existsSync(join(cwd, name))) return name;
  }
}

async function chooseData(hankDir: string, cwd: string): Promise<string> {
  const folder = join(hankDir, 'data');
  const hasFolder = existsSync(folder) && statSync(folder).isDirectory();
  const OTHER = '\u0000other';
  const choice = await answer(
    prompts.select<string>({
      message: 'Which data should the agents read? (they see it read-only)',
      options: [
        ...(hasFolder
          ? [{ value: folder, label: `${shown(folder, cwd)}`, hint: "the hank's data folder" }]
          : []),
        ...(resolve(cwd) !== resolve(hankDir)
          ? [{ value: resolve(cwd), label: 'The current directory', hint: resolve(cwd) }]
          : []),
        {
          value: hankDir,
          label: "The hank's own folder",
          hint: 'editing a prompt then counts as new data: the next run starts over',
        },
        { value: OTHER, label: 'Another file or folder…' },
      ],
    }),
  );
  if (choice !== OTHER) return choice;
  const path = await answer(
    prompts.text({
      message: 'Path of the data',
      validate: (value) =>
        value && existsSync(resolve(cwd, value)) ? undefined : 'No such file or folder',
    }),
  );
  return resolve(cwd, path);
}

async function chooseModel(
  hankDir: string,
  cwd: string,
): Promise<{ script?: string; model?: string }> {
  const script = join(hankDir, 'model-script.json');
  const hasScript = existsSync(script);
  const key = process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY is set' : 'needs API keys';
  const choice = await answer(
    prompts.select<string>({
      message: 'Which model answers the agents?',
      options: [
        ...(hasScript
          ? [
              {
                value: 'script',
                label: `A dry run on ${shown(script, cwd)}`,
                hint: 'a local scripted model: offline, no API key, no cost',
              },
            ]
          : []),
        {
          value: 'other-script',
          label: 'A dry run on another model script…',
          hint: 'offline, no API key',
        },
        { value: 'real', label: "The hank's own models", hint: `a real run: ${key}` },
        { value: 'model', label: 'Another model for every codon…', hint: `a real run: ${key}` },
      ],
    }),
  );
  if (choice === 'script') return { script };
  if (choice === 'real') return {};
  if (choice === 'other-script') {
    const path = await answer(
      prompts.text({
        message: 'Path of the model script (JSON)',
        validate: (value) =>
          value && existsSync(resolve(cwd, value)) ? undefined : 'No such file',
      }),
    );
    return { script: resolve(cwd, path) };
  }
  const harnesses = installedHarnesses();
  const model = await answer(
    prompts.select<string>({
      message: 'Which model for every codon?',
      options: MODEL_CHOICES.filter(
        (id) => checkModelId(id, defaultModelCatalog, harnesses).ok,
      ).map((id) => ({ value: id, label: id })),
    }),
  );
  return { model };
}

/** Shows the hank's structure and what is wrong with it, as a run would check it. */
function validate(terminal: Terminal, hankDir: string, model: string | undefined): boolean {
  const hankPath = join(hankDir, 'hank.json');
  const read = readHankJsonText(hankPath);
  if (!read.ok) {
    prompts.log.error(
      `${hankPath}:${read.problem.line}:${read.problem.column}: ${read.problem.message}`,
    );
    return false;
  }
  const result = validateHank(model ? withModelOverride(read.config, model) : read.config, {
    hankDir: read.hankDir,
    hankPath,
    harnesses: installedHarnesses(),
    copyTree: listCopyTree,
  });
  if (result.config) {
    prompts.log.step('The hank');
    printStructure(terminal, result.config);
  }
  for (const warning of result.warnings)
    prompts.log.warn(`${warning.path}: ${printable(warning.message)}`);
  if (result.valid) {
    prompts.log.success(`${hankPath} is valid`);
    return true;
  }
  prompts.log.error(
    [
      `${hankPath} is not valid:`,
      ...result.errors.map((error) => `• ${error.path}: ${printable(error.message)}`),
    ].join('\n'),
  );
  return false;
}
