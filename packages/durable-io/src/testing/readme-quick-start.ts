import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withPrivateTmpdir } from './temp-dir.js';

/** What a README's quick start printed, and what its `// → ...` comments promise it prints. */
export interface QuickStartRun {
  /** The first ```ts block of the README. */
  block: string;
  /** Each `console.log` call, its arguments joined with spaces. */
  printed: string[];
  /** The text after `// → ` on each line of the block, in order. */
  promised: string[];
}

/**
 * Runs the first ```ts block of `{packageRoot}/README.md` as a user would (its imports resolve
 * as written: a self-import needs the package built), capturing `console.log`. The block is
 * written to `{packageRoot}/.tmp/` under a per-process name and removed afterwards; it runs with
 * `TMPDIR` set to a directory of its own (see {@link withPrivateTmpdir}), removed afterwards too.
 *
 * @throws when the README has no ```ts block (the message says which README).
 */
export async function runReadmeQuickStart(packageRoot: string): Promise<QuickStartRun> {
  const readmePath = join(packageRoot, 'README.md');
  const block = /```ts\n([\s\S]*?)```/.exec(await readFile(readmePath, 'utf8'))?.[1];
  if (block === undefined) throw new Error(`${readmePath} has no \`\`\`ts quick start block`);
  const target = join(packageRoot, '.tmp', `readme-quick-start-${process.pid}.ts`);
  await mkdir(join(packageRoot, '.tmp'), { recursive: true });
  await writeFile(target, block);
  const printed: string[] = [];
  // The quick start prints with console.log; capture exactly that.
  const sink = globalThis.console;
  const original = sink.log;
  sink.log = (...args: unknown[]) => {
    printed.push(args.map(String).join(' '));
  };
  try {
    // Its demo directories go to a temp dir of its own, removed after: a reader's copy may leave
    // them, a test run must not.
    await withPrivateTmpdir(() => import(pathToFileURL(target).href));
  } finally {
    sink.log = original;
    await rm(target, { force: true });
  }
  const promised = [...block.matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1] as string);
  return { block, printed, promised };
}
