import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import {
  BundleError,
  checkHank,
  DEFAULT_MAX_FILE_BYTES,
  isBundlePath,
  LOCK_FILE,
  type PackFinding,
  packHank,
} from '@hankweave/bundle';
import { writeFileAtomicSync } from '@hankweave/durable-io';
import { listCopyTree } from '@hankweave/files';
import { validateHank } from '@hankweave/hank';
import { CliError } from '../output/cli-error.js';
import { commandHint, shellArg } from '../output/command-hint.js';
import type { Terminal } from '../output/terminal.js';
import type { CommandContext, OptionsOf } from './command-context.js';
import { readHankJson, resolveHankPath } from './load-hank.js';

const declare = (program: CommandUnknownOpts) =>
  program
    .command('pack')
    .description('pack a hank into a deterministic .hank bundle and write its hank.lock')
    .argument('[hank]', 'the hank directory, or its hank.json', '.')
    .option('-o, --output <file>', 'the bundle to write (default <name>-<version>.hank here)')
    .option('--check', 'lint portability only; write nothing')
    .option('--no-lock', 'write only the bundle, not hank.lock beside hank.json')
    .option('--min-runtime <version>', 'runtime.min of the lock (a SemVer version)')
    .option(
      '--max-file-size <bytes>',
      'the largest file a bundle may hold',
      String(DEFAULT_MAX_FILE_BYTES),
    )
    .option('--json', 'print the result as JSON');

/** The flags of `hankweave pack`, inferred from their declaration. */
export type PackCommandOptions = OptionsOf<typeof declare>;

/** Adds `hankweave pack [hank]` to `program`. */
export function register(program: CommandUnknownOpts, { terminal, done }: CommandContext): void {
  declare(program).action(async (hank, options) =>
    done(await packCommand(terminal, hank, options)),
  );
}

/**
 * `hankweave pack [hank]`: validates the hank as a run would, lints its portability, then writes
 * `<name>-<version>.hank` (or `-o`) and `hank.lock` beside hank.json (which pins the directory:
 * a run refuses a file that drifted from it). `--check` writes nothing and exits 1 on an error.
 */
export async function packCommand(
  terminal: Terminal,
  hankArg: string,
  options: PackCommandOptions,
): Promise<number> {
  const hankPath = resolveHankPath(hankArg);
  if (basename(hankPath) !== 'hank.json') {
    throw new CliError(
      'CLI_USAGE',
      `${hankPath} is not named hank.json; a bundle runs the hank.json at its root`,
      'Rename it to hank.json in its own directory, then pack the directory.',
    );
  }
  const hankDir = dirname(hankPath);
  const maxFileBytes = Number(options.maxFileSize);
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes <= 0) {
    throw new CliError(
      'CLI_USAGE',
      `--max-file-size ${options.maxFileSize} is not a byte count`,
      'Pass a whole number of bytes, e.g. --max-file-size 1048576.',
    );
  }
  const output = resolve(options.output ?? defaultOutput(hankDir));
  if (!isBundlePath(output)) {
    throw new CliError(
      'CLI_USAGE',
      `${output} does not end in .hank or .tar.zst`,
      'Name the bundle <something>.hank: a run recognizes a bundle by its suffix.',
    );
  }
  const insideHank = relative(hankDir, output);
  const exclude =
    insideHank.startsWith('..') || insideHank === '' ? [] : [insideHank.split('\\').join('/')];
  const { config } = readHankJson(hankPath);
  // A hank packs only if it would run: the same validation a run does first.
  const validation = validateHank(config, { hankDir, hankPath, copyTree: listCopyTree });
  const invalid: PackFinding[] = validation.errors.map((issue) => ({
    severity: 'error',
    code: 'invalid_hank',
    path: issue.path,
    message: `${issue.message} (${issue.code})`,
  }));
  const checked = checkHank(hankDir, { maxFileBytes, exclude });
  const findings = [...invalid, ...checked.findings];
  const errors = findings.filter((finding) => finding.severity === 'error');
  if (options.check || errors.length > 0) {
    if (options.json) {
      terminal.out(
        JSON.stringify({
          hankDir,
          ok: errors.length === 0,
          rules: checked.rules,
          files: checked.files.length,
          skipped: checked.skipped,
          findings,
        }),
      );
    } else
      printFindings(
        terminal,
        hankDir,
        findings,
        checked.files.length,
        checked.skipped,
        checked.rules,
      );
    if (errors.length > 0 && !options.json)
      terminal.err(
        `${terminal.style.dim('→')} Fix the errors above, then check again: ${commandHint('pack', '--check', shellArg(hankArg))}`,
      );
    return errors.length > 0 ? 1 : 0;
  }
  let packed: Awaited<ReturnType<typeof packHank>>;
  try {
    packed = await packHank(hankDir, {
      maxFileBytes,
      exclude,
      ...(options.minRuntime !== undefined ? { minRuntime: options.minRuntime } : {}),
    });
  } catch (error) {
    if (BundleError.is(error))
      throw new CliError(
        'CLI_FAILED',
        error.message,
        `Check the hank: ${commandHint('pack', '--check', shellArg(hankArg))}`,
      );
    throw error;
  }
  if (existsSync(output) && statSync(output).isDirectory())
    throw new CliError('CLI_USAGE', `${output} is a directory`, 'Pass a file name with -o.');
  // Temp file and rename: a reader never sees half a bundle.
  const temp = `${output}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, packed.archive, { mode: 0o644 });
    renameSync(temp, output);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new CliError(
      'CLI_FAILED',
      `Cannot write ${output}: ${(error as Error).message}`,
      'Pass a writable place with -o.',
    );
  }
  const lockPath = join(hankDir, LOCK_FILE);
  if (options.lock) writeFileAtomicSync(lockPath, packed.lockText);
  if (options.json) {
    terminal.out(
      JSON.stringify({
        bundle: output,
        bundleHash: packed.lock.bundleHash,
        bytes: packed.archive.length,
        files: packed.fileCount,
        skipped: packed.skipped,
        rules: packed.rules,
        lock: options.lock ? lockPath : null,
        runtimeMin: packed.lock.runtime.min,
        findings: packed.findings,
      }),
    );
    return 0;
  }
  const { style } = terminal;
  for (const finding of packed.findings)
    terminal.out(`${style.yellow('!')} ${finding.path}: ${finding.message}`);
  terminal.out(style.green(`✓ Packed ${output}`));
  terminal.out(
    `  ${packed.fileCount} file(s) + hank.lock, ${packed.archive.length} bytes; ${packed.skipped} path(s) skipped by ${packed.rules === 'gitignore' ? 'the hank .gitignore' : 'the default ignores'}`,
  );
  terminal.out(
    style.dim(`  bundleHash ${packed.lock.bundleHash} · runtime.min ${packed.lock.runtime.min}`),
  );
  if (options.lock)
    terminal.out(
      style.dim(
        `  wrote ${lockPath}: runs of ${hankDir} now refuse a file that drifts from it (repack to update it)`,
      ),
    );
  terminal.out(
    style.dim(
      `→ Run it: ${commandHint(shellArg(relative(process.cwd(), output) || output), '<data>')}`,
    ),
  );
  return 0;
}

/** `<name>-<version>.hank` in the current directory, the name made safe for a file name. */
function defaultOutput(hankDir: string): string {
  let name = basename(hankDir);
  let version = '';
  try {
    const { config } = readHankJson(join(hankDir, 'hank.json'));
    const meta = (config as { meta?: { name?: unknown; version?: unknown } }).meta;
    if (typeof meta?.name === 'string' && meta.name !== '') name = meta.name;
    if (typeof meta?.version === 'string' && meta.version !== '') version = `-${meta.version}`;
  } catch {
    // The validation reports it.
  }
  const safe = `${name}${version}`
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+/, '');
  return resolve(`${safe || 'hank'}.hank`);
}

function printFindings(
  terminal: Terminal,
  hankDir: string,
  findings: readonly PackFinding[],
  files: number,
  skipped: number,
  rules: string,
): void {
  const { style } = terminal;
  const errors = findings.filter((finding) => finding.severity === 'error');
  for (const finding of findings) {
    const mark = finding.severity === 'error' ? style.red('✗') : style.yellow('!');
    const line = `${mark} ${finding.code} ${finding.path}: ${finding.message}`;
    if (finding.severity === 'error') terminal.err(line);
    else terminal.out(line);
  }
  const summary = `${hankDir}: ${files} file(s) to pack, ${skipped} path(s) skipped by ${rules === 'gitignore' ? 'the hank .gitignore' : 'the default ignores'}; ${errors.length} error(s), ${findings.length - errors.length} warning(s)`;
  if (errors.length > 0) terminal.err(style.red(summary));
  else terminal.out(style.green(`✓ ${summary}`));
}
