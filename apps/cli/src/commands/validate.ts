import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { type CopyTreeListing, listCopyTree } from '@hankweave/files';
import { type HankIssue, validateHank, withModelOverride } from '@hankweave/hank';
import { isRemoteHankUrl } from '@hankweave/remote';
import { installedHarnesses } from '@hankweave/runtime/config';
import {
  type BranchItem,
  type CodonConfig,
  describeCondition,
  type HankConfig,
  type HankSource,
  isLoopConfig,
  isParallelConfig,
  itemCodons,
  resolverOf,
} from '@hankweave/types';
import { defaultDataOf } from '../execution/find-execution.js';
import { printBudgetTable } from '../output/budget-table.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import { describeHankSource } from '../output/hank-source.js';
import type { Terminal } from '../output/terminal.js';
import { checkPinnedHank, isBundleArgument } from '../run/bundle-source.js';
import {
  printRuntimeConfig,
  printRuntimeConfigWarnings,
  type RuntimeConfigFlags,
  resolveCliRuntimeConfig,
  runtimeConfigJson,
} from '../run/runtime-config.js';
import type { CommandContext, OptionsOf } from './command-context.js';
import { invalidJsonError, readHankJsonText, resolveHankPath } from './load-hank.js';

const declare = (program: CommandUnknownOpts) =>
  program
    .command('validate')
    .description('validate a hank: structure, warnings, errors (creates nothing)')
    .argument('<hank>', 'hank.json, a directory holding one, or a git URL: <url>[#ref][:subdir]')
    .option('--json', 'print the result as JSON')
    .option(
      '-v, --verbose',
      'also list each runtime setting (value, where it came from) and what each rig copy skips',
    )
    .option('-o, --output <dir>', 'the output directory a run would use (warns when not empty)');

/**
 * What `validateCommand` takes: the flags of `hankweave validate` (inferred from their
 * declaration), with `--output` among the runtime-config `flags`, as a run's `-v` passes all of
 * its flags there.
 */
export type ValidateOptions = Omit<OptionsOf<typeof declare>, 'output'> & {
  flags?: RuntimeConfigFlags;
  /** Where the hank came from (a git URL at a commit); default its path. */
  hankSource?: HankSource;
  /** The hank as the user wrote it (a URL), for the printed commands; default `hankArg`. */
  shownArg?: string;
};

/** Adds `hankweave validate <hank>` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (hank, options) => {
    // A git URL is fetched (or taken from the cache) first, a bundle verified and extracted; a
    // path is read as it is.
    const resolved = isRemoteHankUrl(hank)
      ? await (await import('../run/remote-source.js')).resolveHankArgument(hank)
      : isBundleArgument(hank)
        ? await (await import('../run/bundle-source.js')).openBundleHank(hank)
        : undefined;
    if (resolved && 'notes' in resolved)
      for (const line of resolved.notes ?? []) terminal.err(terminal.style.yellow(`! ${line}`));
    // A pinned directory (or git checkout) whose files drifted from its hank.lock would be
    // refused by a run: validate says so too. A bundle was verified against its own lock.
    if (resolved?.hankSource?.kind !== 'bundle') {
      await checkPinnedHank(dirname(resolveHankPath(resolved?.hankPath ?? hank)));
    }
    done(
      validateCommand(terminal, resolved?.hankPath ?? hank, {
        ...options,
        ...(options.output !== undefined ? { flags: { output: options.output } } : {}),
        ...(resolved?.hankSource !== undefined
          ? { hankSource: resolved.hankSource, shownArg: hank }
          : {}),
      }),
    );
  });
}

/**
 * `hankweave validate <hank>`: checks everything a run would check first; creates nothing.
 * With `--json`, prints `{hankPath, valid, errors, warnings}` on stdout, also when hank.json is
 * not JSON (one error, code `invalid_json`, with `line`, `column` and `excerpt`).
 */
export function validateCommand(
  terminal: Terminal,
  hankArg: string,
  options: ValidateOptions,
): number {
  const hankPath = resolveHankPath(hankArg);
  const hankSource: HankSource = options.hankSource ?? { kind: 'path', path: hankPath };
  const shownArg = options.shownArg ?? hankArg;
  const read = readHankJsonText(hankPath);
  if (!read.ok) {
    if (!options.json) throw invalidJsonError(read.problem);
    // The same shape as any other result, with one `invalid_json` error that carries where.
    const { message, line, column, excerpt } = read.problem;
    const error = { path: '(root)', code: 'invalid_json', message, line, column, excerpt };
    terminal.out(
      JSON.stringify({ hankPath, hankSource, valid: false, errors: [error], warnings: [] }),
    );
    return 1;
  }
  const { config, hankDir } = read;
  // A bad hankweave.json fails validation as it would fail the run; -v also lists each setting
  // a run would use and where it came from (reference §1.10).
  const resolved = resolveCliRuntimeConfig(options.flags ?? {}, config);
  // `-m` (or the configured model) replaces every codon's model before a run validates the hank,
  // so `hankweave hank.json -m opus -v` judges the hank the run would get.
  const model = resolved.get('model');
  const result = validateHank(
    typeof model === 'string' ? withModelOverride(config, model) : config,
    {
      hankDir,
      hankPath,
      // As the run would: a model is usable when an installed adapter runs it (Pi: not Anthropic's).
      harnesses: installedHarnesses(),
      // A rig copy skips what the hank's .gitignore (or the defaults) ignores: so does the check.
      copyTree: listCopyTree,
    },
  );
  const runtimeConfig = options.verbose ? resolved : undefined;
  const outputWarning =
    result.config && nonEmptyOutputWarning(result.config, resolved.get('outputDirectory'));
  if (outputWarning) result.warnings.push(outputWarning);
  const copies = options.verbose && result.config ? rigCopies(result.config, hankDir) : undefined;
  if (options.json) {
    terminal.out(
      JSON.stringify({
        hankPath,
        hankSource,
        valid: result.valid,
        errors: result.errors,
        warnings: result.warnings,
        ...(runtimeConfig
          ? {
              runtimeConfig: runtimeConfigJson(runtimeConfig),
              runtimeConfigWarnings: runtimeConfig.warnings,
            }
          : {}),
        ...(copies ? { rigCopies: copies } : {}),
      }),
    );
    return result.valid ? 0 : 1;
  }
  const { style } = terminal;
  if (result.config) {
    printStructure(terminal, result.config);
    printBudgetTable(terminal, result.config);
  }
  terminal.out(`${style.dim('Source:')} ${describeHankSource(hankSource)}`);
  if (runtimeConfig) {
    printRuntimeConfig(terminal, runtimeConfig);
    printRuntimeConfigWarnings((line) => terminal.out(line), terminal, runtimeConfig);
  }
  if (copies) printRigCopies(terminal, copies);
  if (result.warnings.length > 0) {
    terminal.out(style.yellow('!  Configuration warnings:'));
    for (const warning of result.warnings)
      terminal.out(`   ${style.yellow('•')} ${warning.path}: ${warning.message}`);
  }
  if (!result.valid) {
    terminal.err(style.red(`Validation failed: ${hankPath}`));
    for (const error of result.errors)
      terminal.err(`   ${style.red('•')} ${error.path}: ${error.message}`);
    const count = result.errors.length === 1 ? 'the field above' : 'the fields above';
    terminal.err(
      `${style.dim('→')} Fix ${count} in ${hankPath}, then check again: ${commandHint('validate', shellArg(shownArg))}`,
    );
    return 1;
  }
  terminal.out(style.green(`✓ ${hankPath} is valid`));
  // A hank directory with a data/ folder runs on it by default; otherwise the data is needed.
  const ownData = defaultDataOf(hankDir) !== hankDir;
  terminal.out(
    style.dim(
      `→ Run it: ${ownData && (options.hankSource?.kind ?? 'path') === 'path' ? `${commandHint(shellArg(relativeOrAbsolute(hankDir)))}   (on its data/ folder)` : commandHint(shellArg(shownArg), '<data>')}`,
    ),
  );
  return 0;
}

/**
 * Reference §1.11: a non-empty output directory is a warning, since a run's outputs then meet
 * files already there (renamed, or replaced with --overwrite-output).
 */
function nonEmptyOutputWarning(config: HankConfig, directory: unknown): HankIssue | undefined {
  if (typeof directory !== 'string') return undefined;
  const codons = config.hank.flatMap(itemCodons);
  if (!codons.some((codon) => (codon.outputFiles?.length ?? 0) > 0)) return undefined;
  const path = resolve(directory);
  let entries: string[];
  try {
    entries = readdirSync(path);
  } catch {
    return undefined;
  }
  if (entries.length === 0) return undefined;
  return {
    path: 'outputDirectory',
    code: 'output_directory_not_empty',
    message: `${path} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}): an output whose name is taken will be renamed (name_<counter>_<timestamp>.ext), or replaced with --overwrite-output`,
  };
}

/** Prints the hank as a numbered tree: `[1]`, `[2]`, `[2.1]`. */
export function printStructure(terminal: Terminal, config: HankConfig): void {
  const { style } = terminal;
  terminal.out(
    `${style.bold(config.meta.name)} ${style.dim(config.meta.version)}${config.meta.description ? ` — ${config.meta.description}` : ''}`,
  );
  const codonLine = (label: string, codon: CodonConfig, indent: string) => {
    const rig = codon.rigSetup?.length ? `, rig: ${codon.rigSetup.length} op(s)` : '';
    const when = codon.when ? `, when ${describeCondition(codon.when)}` : '';
    terminal.out(
      `${indent}[${label}] ${codon.id} — ${codon.name} ${style.dim(`(${codon.model}, ${codon.continuationMode}${rig}${when})`)}`,
    );
  };
  const itemLines = (label: string, item: BranchItem, indent: string) => {
    if (!isLoopConfig(item)) {
      codonLine(label, item, indent);
      return;
    }
    const stop =
      item.terminateOn.type === 'iterationLimit'
        ? `up to ${item.terminateOn.limit} iterations`
        : item.terminateOn.type === 'plateau'
          ? `until a plateau (max ${item.terminateOn.maxIterations})`
          : 'until the context is exceeded';
    const when = item.when ? `, when ${describeCondition(item.when)}` : '';
    terminal.out(
      `${indent}[${label}] ${style.cyan('loop')} ${item.id} — ${item.name} ${style.dim(`(${stop}${when})`)}`,
    );
    for (const [inner, codon] of item.codons.entries()) {
      codonLine(`${label}.${inner + 1}`, codon, `${indent}    `);
    }
  };
  for (const [index, item] of config.hank.entries()) {
    if (!isParallelConfig(item)) {
      itemLines(`${index + 1}`, item, '');
      continue;
    }
    const resolver = resolverOf(item);
    const merge = resolver ? `resolver ${resolver.id}` : item.merge.onConflict;
    terminal.out(
      `[${index + 1}] ${style.cyan('parallel')} ${item.id} — ${item.name} ${style.dim(`(${item.branches.length} branches, on conflict: ${merge})`)}`,
    );
    for (const [branchIndex, branch] of item.branches.entries()) {
      const label = `${index + 1}.${branchIndex + 1}`;
      terminal.out(
        `    [${label}] ${style.cyan('branch')} ${branch.id}${branch.name ? ` — ${branch.name}` : ''}`,
      );
      for (const [at, inner] of branch.items.entries()) {
        itemLines(`${label}.${at + 1}`, inner, '        ');
      }
    }
    if (resolver) codonLine(`${index + 1}.r`, resolver, '    ');
  }
}

/** `path` relative to the current directory when it is inside it, else as it is. */
function relativeOrAbsolute(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown === '' ? '.' : shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

/** How many skipped paths `validate -v` names per copy (the rest are counted). */
const SKIPS_SHOWN = 5;

/** What one rig copy takes and skips, as `validate -v` reports it (`rigCopies` in --json). */
export interface RigCopyReport {
  codon: string;
  /** 1-based, as in `rigSetup[index - 1]`. */
  operation: number;
  from: string;
  to: string;
  /** `gitignore` (the hank root's .gitignore) or `defaults`. */
  rules: CopyTreeListing['source'];
  files: number;
  skipped: { total: number; directories: number; files: number; first: string[] };
  /** The path named as `from` matches a rule itself: it is copied whole, as named. */
  rootIgnored: boolean;
  error?: string;
}

/** Lists every rig copy of the hank with what its ignore rules skip. */
export function rigCopies(config: HankConfig, hankDir: string): RigCopyReport[] {
  const reports: RigCopyReport[] = [];
  const codons = config.hank.flatMap(itemCodons);
  for (const codon of codons) {
    for (const [index, op] of (codon.rigSetup ?? []).entries()) {
      if (op.type !== 'copy') continue;
      const base = { codon: codon.id, operation: index + 1, from: op.copy.from, to: op.copy.to };
      try {
        const listing = listCopyTree(hankDir, op.copy.from);
        const directories = listing.ignored.filter((entry) => entry.directory).length;
        reports.push({
          ...base,
          rules: listing.source,
          files: listing.files.length,
          skipped: {
            total: listing.ignored.length,
            directories,
            files: listing.ignored.length - directories,
            first: listing.ignored
              .slice(0, SKIPS_SHOWN)
              .map((entry) => (entry.directory ? `${entry.path}/` : entry.path)),
          },
          rootIgnored: listing.rootIgnored,
        });
      } catch (error) {
        reports.push({
          ...base,
          rules: 'defaults',
          files: 0,
          skipped: { total: 0, directories: 0, files: 0, first: [] },
          rootIgnored: false,
          error: (error as Error).message,
        });
      }
    }
  }
  return reports;
}

function printRigCopies(terminal: Terminal, copies: RigCopyReport[]): void {
  if (copies.length === 0) return;
  const { style } = terminal;
  terminal.out(style.bold('Rig copies (directory copies skip what the ignore rules match):'));
  for (const copy of copies) {
    const head = `   ${copy.codon} rigSetup[${copy.operation - 1}] ${copy.from} → ${copy.to}`;
    if (copy.error) {
      terminal.out(`${head}: ${style.yellow(copy.error)}`);
      continue;
    }
    const rules = copy.rules === 'gitignore' ? 'the hank .gitignore' : 'the default ignores';
    const { skipped } = copy;
    const what =
      skipped.total === 0
        ? `takes ${copy.files} file(s), skips nothing (${rules})`
        : `takes ${copy.files} file(s), skips ${skipped.total} (${skipped.directories} director${skipped.directories === 1 ? 'y' : 'ies'}, ${skipped.files} file(s)) by ${rules}: ${skipped.first.join(', ')}${skipped.total > skipped.first.length ? `, … ${skipped.total - skipped.first.length} more` : ''}`;
    terminal.out(`${head}: ${what}`);
    if (copy.rootIgnored)
      terminal.out(
        style.dim(
          `     (${copy.from} matches ${rules} itself; copied whole, as the hank names it)`,
        ),
      );
  }
}
