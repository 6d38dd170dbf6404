import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '@hankweave/harness';

/** The npm package whose `dist/cli.js` is the agent. */
export const PI_PACKAGE = '@mariozechner/pi-coding-agent';

const CLI_IN_PACKAGE = join('dist', 'cli.js');

/**
 * Finds Pi's `cli.js` (run with this Node): `explicitPath`, else `HANKWEAVE_PI_PATH`, else the
 * package this one depends on. The package exports no `package.json`, so it is found through its
 * entry point, or by walking up `node_modules` from this file.
 * @throws {HarnessError} HARNESS_BINARY_NOT_FOUND naming where it looked.
 */
export function resolvePiCli(
  options: { explicitPath?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): string {
  const env = options.env ?? process.env;
  const given = options.explicitPath ?? nonEmpty(env.HANKWEAVE_PI_PATH);
  if (given !== undefined) {
    if (existsSync(given)) return given;
    throw new HarnessError(
      'HARNESS_BINARY_NOT_FOUND',
      `Pi's cli.js was not found at ${given} (from ${options.explicitPath !== undefined ? 'the "piPath" option' : 'HANKWEAVE_PI_PATH'}): point it at ${PI_PACKAGE}/dist/cli.js`,
      { details: { path: given } },
    );
  }
  const found = fromEntryPoint() ?? fromNodeModules();
  if (found !== undefined) return found;
  throw new HarnessError(
    'HARNESS_BINARY_NOT_FOUND',
    `Pi was not found: install ${PI_PACKAGE} next to @hankweave/pi, or set HANKWEAVE_PI_PATH to its dist/cli.js`,
    { details: { package: PI_PACKAGE } },
  );
}

function fromEntryPoint(): string | undefined {
  try {
    const entry = fileURLToPath(import.meta.resolve(PI_PACKAGE));
    const cli = join(dirname(entry), 'cli.js');
    return existsSync(cli) ? cli : undefined;
  } catch {
    return undefined;
  }
}

function fromNodeModules(): string | undefined {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, 'node_modules', PI_PACKAGE, CLI_IN_PACKAGE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
