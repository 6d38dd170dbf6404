import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CLI_ROOT, createSandbox, runProcess, type Sandbox } from './cli-harness.js';

const REPO = join(CLI_ROOT, '..', '..');
const LINK_CLI = join(REPO, 'tools', 'launcher', 'bin', 'link-cli.mjs');
const { version } = JSON.parse(readFileSync(join(CLI_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

/**
 * Item 1 of issue 32: after the README's setup, `hankweave` works from any directory. The setup's
 * link step runs against a private npm prefix (never the machine's own), then every command runs
 * by name, through PATH, from a directory outside the clone.
 */
describe('hankweave on PATH, from a directory outside the clone', () => {
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  let work: string;
  let prefix: string;
  const hankweave = (args: string[], timeoutMs?: number) =>
    runProcess('hankweave', args, { env, cwd: work, ...(timeoutMs ? { timeoutMs } : {}) });

  beforeAll(async () => {
    sandbox = createSandbox();
    prefix = join(sandbox.root, 'npm-global');
    work = join(sandbox.root, 'work');
    mkdirSync(work);
    env = {
      ...sandbox.env,
      npm_config_prefix: prefix,
      PATH: [join(prefix, 'bin'), sandbox.env.PATH].join(delimiter),
    };
    const linked = await runProcess(process.execPath, [LINK_CLI], { env, cwd: work });
    expect(linked.stderr).toBe('');
    expect(linked.code).toBe(0);
    expect(linked.stdout).toContain(
      `put hankweave on your PATH: ${join(prefix, 'bin', 'hankweave')}`,
    );
    // No next step left to do (the link is first on PATH).
    expect(linked.stdout).not.toMatch(/^→/m);
  });
  afterAll(() => sandbox.cleanup());

  it('links the built CLI (a symlink into the clone, nothing copied or downloaded)', () => {
    const globalPackage = join(prefix, 'lib', 'node_modules', 'hankweave');
    expect(lstatSync(globalPackage).isSymbolicLink()).toBe(true);
    expect(realpathSync(join(prefix, 'bin', 'hankweave'))).toBe(realpathSync(BIN));
  });

  it('says it is already linked the second time, and that the link is on PATH', async () => {
    const again = await runProcess(process.execPath, [LINK_CLI], { env, cwd: work });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^hankweave is on your PATH: /);
  });

  it('runs --version, init, validate and a dry run, and every printed command is `hankweave ...`', async () => {
    const versionRun = await hankweave(['--version']);
    expect(versionRun).toMatchObject({ code: 0, stdout: `${version}\n` });

    const init = await hankweave(['init', 'my-hank']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'hankweave my-hank my-hank/data --scripted-model my-hank/model-script.json',
    );
    expect(init.stdout).not.toMatch(/pnpm|node /);
    const readme = readFileSync(join(work, 'my-hank', 'README.md'), 'utf8');
    expect(readme).toContain('hankweave . data --scripted-model model-script.json');
    expect(readme).not.toMatch(/pnpm|node \//);

    const validate = await hankweave(['validate', 'my-hank']);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('is valid');

    const run = await hankweave(
      ['my-hank', 'my-hank/data', '--scripted-model', 'my-hank/model-script.json'],
      90_000,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('all codons completed');
    expect(run.stdout).toMatch(/^Resume\s+hankweave --execution /m);
    expect(run.stdout).toMatch(/^Inspect\s+hankweave checkpoints -e /m);

    const status = await hankweave(['status', '--data', 'my-hank']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Codons\s+2 completed$/m);
  });

  it('prints `hankweave ...` under `pnpm hankweave` too, once the link is on PATH', async () => {
    // pnpm puts the repository's node_modules/.bin (its launcher) first on PATH: the CLI looks
    // past it, at what a shell would run.
    const target = join(work, 'from-launcher');
    const result = await runProcess('pnpm', ['hankweave', 'init', target], {
      env,
      cwd: REPO,
      timeoutMs: 300_000,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {4}hankweave \S+ \S+ --scripted-model /m);
    expect(result.stdout).not.toContain('pnpm');
    expect(readFileSync(join(target, 'README.md'), 'utf8')).toContain(
      'hankweave . data --scripted-model model-script.json',
    );
    // As long as the process may take: `pnpm hankweave` first rebuilds whatever is stale.
  }, 300_000);
});

/**
 * What a release ships: `pnpm pack` of the CLI and of every workspace package it depends on
 * (the tarballs `changeset publish` uploads), installed into one node_modules as npm would lay
 * them out. Only the packed files and the declared dependencies are there, so a file missing
 * from a package's `files` or an undeclared dependency fails the dry run.
 */
describe('the packed CLI and its packages', () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => sandbox.cleanup());

  it('declare real versions (no workspace: range) and run a dry run from their own files', async () => {
    const packs = join(sandbox.root, 'packs');
    const modules = join(sandbox.root, 'install', 'node_modules');
    mkdirSync(packs);
    mkdirSync(modules, { recursive: true });
    const workspaceDirs = new Map<string, string>();
    for (const parent of ['packages', 'apps']) {
      for (const name of readdirSync(join(REPO, parent))) {
        const manifest = join(REPO, parent, name, 'package.json');
        if (existsSync(manifest))
          workspaceDirs.set(
            (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name,
            join(REPO, parent, name),
          );
      }
    }
    const packed = new Set<string>();
    const pending = ['hankweave'];
    const thirdParty = new Map<string, string>();
    while (pending.length > 0) {
      const name = pending.pop() as string;
      if (packed.has(name)) continue;
      packed.add(name);
      const dir = workspaceDirs.get(name) as string;
      const tarball = execFileSync('pnpm', ['pack', '--pack-destination', packs], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      })
        .trim()
        .split('\n')
        .at(-1) as string;
      const target = join(modules, name);
      mkdirSync(target, { recursive: true });
      execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
      const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        expect(range, `${name} → ${dependency}`).not.toMatch(/^workspace:/);
        if (workspaceDirs.has(dependency)) pending.push(dependency);
        else if (!thirdParty.has(dependency)) {
          // The copy pnpm installed for that package: what the registry would serve.
          thirdParty.set(dependency, realpathSync(join(dir, 'node_modules', dependency)));
        }
      }
    }
    for (const [dependency, dir] of thirdParty) {
      const link = join(modules, dependency);
      if (existsSync(link)) continue;
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(dir, link);
    }
    const bin = join(modules, 'hankweave', 'dist', 'bin.js');
    const cwd = join(sandbox.root, 'work');
    mkdirSync(cwd);
    const cli = (args: string[]) =>
      runProcess(process.execPath, [bin, ...args], { env: sandbox.env, cwd, timeoutMs: 90_000 });
    expect((await cli(['--version'])).stdout).toBe(`${version}\n`);
    expect((await cli(['init', 'packed'])).code).toBe(0);
    const run = await cli([
      'packed',
      'packed/data',
      '--scripted-model',
      'packed/model-script.json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('all codons completed');
    // The dashboard's assets ship inside the CLI.
    expect(existsSync(join(modules, 'hankweave', 'dist', 'ui', 'index.html'))).toBe(true);
    // Twenty `pnpm pack` runs are CPU work: about 30 s alone, over a minute on a loaded machine.
  }, 240_000);
});
