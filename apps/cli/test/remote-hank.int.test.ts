import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GitHttpServer, gitInTest, startGitHttpServer } from '@hankweave/remote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, EXAMPLE_DIR, executionDirOf, runCli, type Sandbox } from './cli-harness.js';

// `hankweave <url>[#ref][:subdir] <data>`: the example hank pushed into a bare repository that
// Debian git's `git http-backend` serves on loopback, run by the built CLI on the scripted model.
// The cache is the sandbox's (HANKWEAVE_CACHE_DIR); the server counts requests.
describe('remote hanks (a git smart-HTTP server on loopback)', () => {
  let sandbox: Sandbox;
  let server: GitHttpServer;
  let tree: string;
  let env: NodeJS.ProcessEnv;
  const commits: Record<string, string> = {};
  const local = { data: '', script: '' };
  const token = 's3cret-t0ken';
  let repo: string;
  let authed: string;
  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runCli(args, { env: { ...env, ...extra } });
  const meta = (dir: string) =>
    JSON.parse(readFileSync(join(dir, '.hankweave', 'execution-meta.json'), 'utf8'));
  const push = (ref: string) =>
    gitInTest(tree, ['push', '-q', '-f', join(server.root, 'hanks.git'), `HEAD:${ref}`]);

  beforeAll(async () => {
    sandbox = createSandbox();
    server = await startGitHttpServer();
    env = { ...sandbox.env, HANKWEAVE_CACHE_DIR: join(sandbox.root, 'cache') };
    const example = sandbox.copyExample();
    local.data = example.dataDir;
    local.script = example.script;
    tree = join(sandbox.root, 'work');
    mkdirSync(join(tree, 'hanks'), { recursive: true });
    cpSync(EXAMPLE_DIR, join(tree, 'hanks', 'hello'), { recursive: true });
    gitInTest(tree, ['init', '-q', '-b', 'main']);
    gitInTest(tree, ['add', '-A']);
    gitInTest(tree, ['commit', '-q', '-m', 'hello-hank 1.0.0']);
    gitInTest(server.root, ['init', '-q', '--bare', '-b', 'main', 'hanks.git']);
    push('refs/heads/main');
    push('refs/heads/feature/x');
    gitInTest(tree, ['tag', 'v1']);
    push('refs/tags/v1');
    commits.first = gitInTest(tree, ['rev-parse', 'HEAD']).trim();
    repo = `${server.url}/hanks.git`;
    authed = repo.replace('http://', `http://ci:${token}@`);
  });

  afterAll(async () => {
    await server?.close();
    sandbox?.cleanup();
  });

  let firstRun = '';

  it('runs a branch with a slash and a subdir, records the commit, never the credentials', async () => {
    const url = `${authed}#feature/x:hanks/hello`;
    const run = await cli([url, local.data, '--scripted-model', local.script, '--start-new']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello-hank 1.0.0');
    expect(`${run.stdout}${run.stderr}`).not.toContain(token);
    firstRun = executionDirOf(run.stdout);
    expect(meta(firstRun).hankSource).toEqual({
      kind: 'git',
      url: repo,
      ref: 'feature/x',
      commit: commits.first,
      subdir: 'hanks/hello',
    });
    expect(readFileSync(join(firstRun, '.hankweave', 'execution-meta.json'), 'utf8')).not.toContain(
      token,
    );
    // status shows where it came from, in words and in JSON.
    const status = await cli(['status', '-e', firstRun]);
    expect(status.stdout).toMatch(
      new RegExp(`Hank\\s+${repo}#feature/x:hanks/hello at commit ${commits.first?.slice(0, 12)}`),
    );
    const json = JSON.parse((await cli(['status', '-e', firstRun, '--json'])).stdout);
    expect(json.hankSource).toMatchObject({ kind: 'git', commit: commits.first });
  });

  it('answers a second time from the cache: no request reaches the server', async () => {
    const before = server.requests.length;
    const validate = await cli(['validate', '--json', `${repo}#feature/x:hanks/hello`]);
    expect(validate.code, validate.stderr).toBe(0);
    expect(JSON.parse(validate.stdout).hankSource).toEqual({
      kind: 'git',
      url: repo,
      ref: 'feature/x',
      commit: commits.first,
      subdir: 'hanks/hello',
    });
    expect(server.requests.length).toBe(before);
  });

  it('resolves a tag and an abbreviated commit (kept forever), and prints the source', async () => {
    // (The library's own tests cover full commits; one CLI process each costs a second here.)
    for (const ref of ['v1', (commits.first as string).slice(0, 9)]) {
      const validate = await cli(['validate', '--json', `${repo}#${ref}:hanks/hello`]);
      expect(validate.code, validate.stderr).toBe(0);
      expect(JSON.parse(validate.stdout).hankSource).toMatchObject({ ref, commit: commits.first });
    }
    const before = server.requests.length;
    const human = await cli(['validate', `${repo}#v1:hanks/hello`], {
      HANKWEAVE_REMOTE_TTL_SECONDS: '0',
    });
    expect(human.stdout).toContain(`Source: ${repo}#v1:hanks/hello at commit `);
    expect(server.requests.length).toBe(before);
  });

  it('re-resolves a moved branch past its TTL, and a resume still runs the recorded commit', async () => {
    const hankJson = join(tree, 'hanks', 'hello', 'hank.json');
    writeFileSync(hankJson, readFileSync(hankJson, 'utf8').replace('"1.0.0"', '"2.0.0"'));
    gitInTest(tree, ['commit', '-q', '-am', 'hello-hank 2.0.0']);
    commits.moved = gitInTest(tree, ['rev-parse', 'HEAD']).trim();
    push('refs/heads/feature/x');
    const url = `${repo}#feature/x:hanks/hello`;
    // Within the TTL the cached resolution stands; past it, the new commit.
    const cached = await cli(['validate', '--json', url]);
    expect(JSON.parse(cached.stdout).hankSource.commit).toBe(commits.first);
    const fresh = await cli(['validate', '--json', url], { HANKWEAVE_REMOTE_TTL_SECONDS: '0' });
    expect(JSON.parse(fresh.stdout).hankSource.commit).toBe(commits.moved);
    // The same data resumes the first execution: its commit runs, and the run says so.
    const resume = await cli([url, local.data, '--scripted-model', local.script], {
      HANKWEAVE_REMOTE_TTL_SECONDS: '0',
    });
    expect(resume.code, resume.stderr).toBe(0);
    expect(executionDirOf(resume.stdout)).toBe(firstRun);
    expect(resume.stdout).toContain('hello-hank 1.0.0');
    expect(resume.stderr).toContain(
      `Resuming at the recorded commit ${commits.first?.slice(0, 12)}`,
    );
    expect(meta(firstRun).hankSource.commit).toBe(commits.first);
    // `--execution` alone resumes it the same way (the recorded hank, from the cache).
    const byDir = await cli(['--execution', firstRun, '--scripted-model', local.script]);
    expect(byDir.code, byDir.stderr).toBe(0);
    expect(byDir.stdout).toContain('hello-hank 1.0.0');
  });

  it('runs the cached hank with the server down and says so in one line; nothing cached fails', async () => {
    await server.stop();
    try {
      const run = await cli(
        [
          `${repo}#feature/x:hanks/hello`,
          local.data,
          '--scripted-model',
          local.script,
          '--start-new',
        ],
        { HANKWEAVE_REMOTE_TTL_SECONDS: '0' },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('hello-hank 2.0.0');
      const warnings = run.stderr.split('\n').filter((line) => line.includes('unreachable'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(
          `${repo} is unreachable; using the cached commit ${commits.moved?.slice(0, 12)} \\(feature/x\\), resolved \\d+ s ago`,
        ),
      );
      const missing = await cli(['validate', `${server.url}/other.git`]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`${server.url}/other.git could not be reached`);
      expect(missing.stderr).toContain('no copy of it is cached');
    } finally {
      await server.restart();
    }
  });

  it('refuses an ssh URL, naming the https one to use', async () => {
    const ssh = await cli(['validate', 'git@github.com:acme/hanks.git#main']);
    expect(ssh.code).toBe(1);
    expect(ssh.stderr).toContain('https://github.com/acme/hanks.git#main');
  });

  it('refuses a remote setting it cannot read instead of using the default', async () => {
    const result = await cli(['validate', `${server.url}/hanks.git#main`], {
      HANKWEAVE_REMOTE_TIMEOUT_SECONDS: 'forever',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HANKWEAVE_REMOTE_TIMEOUT_SECONDS must be a whole number');
    expect(result.stderr).toContain('→ Set it to a whole number of seconds, or unset it');
  });
});
