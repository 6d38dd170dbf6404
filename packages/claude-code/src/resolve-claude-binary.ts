import { constants } from 'node:fs';
import { access, open, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { HarnessError } from '@hankweave/harness';

/** Where the binary was found. */
export type ClaudeBinarySource = 'option' | 'env' | 'package-bin' | 'platform-package' | 'path';

/** A usable `claude` executable. */
export interface ResolvedClaudeBinary {
  path: string;
  source: ClaudeBinarySource;
}

/** Inputs of {@link resolveClaudeBinary}. */
export interface ResolveClaudeBinaryOptions {
  /** An explicit path: used as it is, or an error; nothing else is tried. */
  explicitPath?: string;
  /** Where `HANKWEAVE_CLAUDE_PATH` and `PATH` are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Resolves `@anthropic-ai/claude-code`; default: from this package. Tests pass another. */
  resolvePackageJson?: () => string;
  /**
   * Where this package's own platform dependency is resolved from; default: this package. Tests
   * pass a directory without one.
   */
  resolveFrom?: string;
}

/** The npm package whose `bin` is the agent. */
export const CLAUDE_CODE_PACKAGE = '@anthropic-ai/claude-code';

const OWN_PACKAGE = '@hankweave/claude-code';

// The package ships a placeholder under 4 KiB that its postinstall replaces with the native
// binary; when the postinstall did not run, the placeholder only prints install instructions.
const STUB_MAX_BYTES = 4096;
const NATIVE_MAGIC = [
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O 64
  [0xce, 0xfa, 0xed, 0xfe], // Mach-O 32
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal
  [0x4d, 0x5a], // PE (Windows)
];

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    await access(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why `path` is not the real agent (missing, not executable, the placeholder), or undefined. */
async function rejectReason(path: string): Promise<string | undefined> {
  if (!(await isExecutable(path))) return 'missing or not executable';
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (NATIVE_MAGIC.some((magic) => magic.every((byte, i) => head[i] === byte))) return undefined;
    const { size } = await handle.stat();
    return size < STUB_MAX_BYTES
      ? 'the placeholder stub (the native binary is not installed)'
      : undefined;
  } finally {
    await handle.close();
  }
}

function platformPackages(): string[] {
  const base = `${CLAUDE_CODE_PACKAGE}-${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') return [base];
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
  const musl = report?.header?.glibcVersionRuntime === undefined;
  return musl ? [`${base}-musl`, base] : [base, `${base}-musl`];
}

/**
 * The binary of the first platform package `require` finds, noting every miss in `tried` with
 * `where` (whose dependency was looked for).
 */
async function findPlatformBinary(
  require: NodeJS.Require,
  where: string,
  tried: string[],
): Promise<string | undefined> {
  for (const name of platformPackages()) {
    let dir: string;
    try {
      dir = dirname(require.resolve(`${name}/package.json`));
    } catch {
      tried.push(`${name} (${where}): not installed`);
      continue;
    }
    const path = join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
    const reason = await rejectReason(path);
    if (reason === undefined) return path;
    tried.push(`${name} (${where}) ${path}: ${reason}`);
  }
  return undefined;
}

/**
 * Finds the `claude` executable, in order: `explicitPath`; `HANKWEAVE_CLAUDE_PATH`; the platform
 * package `@anthropic-ai/claude-code-<platform>-<arch>[-musl]` this package depends on (optionally,
 * as `@anthropic-ai/claude-code` itself does); the `bin` of `@anthropic-ai/claude-code`, when that
 * is installed and is the native binary (not the placeholder its postinstall replaces), then the
 * platform package next to it; `claude` on `PATH`.
 * @throws {HarnessError} HARNESS_BINARY_NOT_FOUND naming every place tried.
 */
export async function resolveClaudeBinary(
  options: ResolveClaudeBinaryOptions = {},
): Promise<ResolvedClaudeBinary> {
  const env = options.env ?? process.env;
  const tried: string[] = [];
  const explicit: Array<[string | undefined, ClaudeBinarySource, string]> = [
    [options.explicitPath, 'option', 'the claudePath option'],
    [env.HANKWEAVE_CLAUDE_PATH, 'env', 'HANKWEAVE_CLAUDE_PATH'],
  ];
  for (const [path, source, label] of explicit) {
    if (path === undefined || path === '') continue;
    const reason = await rejectReason(path);
    if (reason === undefined) return { path, source };
    throw notFound([`${label} ${path}: ${reason}`], `Fix ${label} or unset it.`);
  }
  // This package's own optional dependency on the platform package (what a normal install has).
  const own = await findPlatformBinary(
    createRequire(
      options.resolveFrom !== undefined
        ? join(options.resolveFrom, 'package.json')
        : import.meta.url,
    ),
    `a dependency of ${OWN_PACKAGE}`,
    tried,
  );
  if (own !== undefined) return { path: own, source: 'platform-package' };
  let packageDir: string | undefined;
  try {
    const packageJson =
      options.resolvePackageJson?.() ??
      createRequire(import.meta.url).resolve(`${CLAUDE_CODE_PACKAGE}/package.json`);
    packageDir = dirname(packageJson);
    const manifest = JSON.parse(await readFile(packageJson, 'utf8')) as { bin?: unknown };
    const bin =
      typeof manifest.bin === 'string'
        ? manifest.bin
        : (manifest.bin as { claude?: string })?.claude;
    if (bin !== undefined) {
      const path = join(packageDir, bin);
      const reason = await rejectReason(path);
      if (reason === undefined) return { path, source: 'package-bin' };
      tried.push(`${CLAUDE_CODE_PACKAGE} bin ${path}: ${reason}`);
    }
  } catch {
    tried.push(`${CLAUDE_CODE_PACKAGE}: not installed`);
  }
  if (packageDir !== undefined) {
    const path = await findPlatformBinary(
      createRequire(join(packageDir, 'package.json')),
      `next to ${CLAUDE_CODE_PACKAGE}`,
      tried,
    );
    if (path !== undefined) return { path, source: 'platform-package' };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
    if ((await rejectReason(path)) === undefined) return { path, source: 'path' };
  }
  tried.push('claude on PATH: not found');
  throw notFound(
    tried,
    `Install ${OWN_PACKAGE} with its optional dependencies (do not use --omit=optional; the platform package ${platformPackages()[0]} holds the binary), or set HANKWEAVE_CLAUDE_PATH / the claudePath option to a claude binary.`,
  );
}

function notFound(tried: string[], advice: string): HarnessError {
  return new HarnessError(
    'HARNESS_BINARY_NOT_FOUND',
    `Claude Code binary not found. Tried: ${tried.join('; ')}. ${advice}`,
    { details: { tried } },
  );
}
