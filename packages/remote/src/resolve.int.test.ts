import { execFile } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveRemoteHank } from './resolve.js';
import { type GitHttpServer, gitInTest, startGitHttpServer } from './testing.js';

let server: GitHttpServer;
let work: string;
let cacheDir: string;
/** Commits of the test repository, by name. */
const commits: Record<string, string> = {};

/** A work tree pushed to `<root>/<name>.git`. */
function makeRepo(name: string, files: Record<string, string>): string {
  const tree = join(work, name);
  mkdirSync(tree, { recursive: true });
  gitInTest(tree, ['init', '-q', '-b', 'main']);
  write(tree, files);
  gitInTest(tree, ['add', '-A']);
  gitInTest(tree, ['commit', '-q', '-m', 'first']);
  gitInTest(server.root, ['init', '-q', '--bare', '-b', 'main', `${name}.git`]);
  gitInTest(tree, ['push', '-q', join(server.root, `${name}.git`), 'main']);
  return tree;
}

function write(tree: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
}

function commitAndPush(tree: string, name: string, files: Record<string, string>, ref: string) {
  write(tree, files);
  gitInTest(tree, ['add', '-A']);
  gitInTest(tree, ['commit', '-q', '-m', 'next']);
  gitInTest(tree, ['push', '-q', '-f', join(server.root, `${name}.git`), `HEAD:${ref}`]);
  return gitInTest(tree, ['rev-parse', 'HEAD']).trim();
}

beforeAll(async () => {
  server = await startGitHttpServer();
  work = mkdtempSync(join(tmpdir(), 'hankweave-remote-work-'));
  const tree = makeRepo('hanks', { 'hank.json': '{"v":"main"}', 'sub/hank.json': '{"v":"sub"}' });
  commits.main = gitInTest(tree, ['rev-parse', 'HEAD']).trim();
  gitInTest(tree, ['tag', '-a', 'v1.0.0', '-m', 'one']);
  gitInTest(tree, ['push', '-q', join(server.root, 'hanks.git'), 'v1.0.0']);
  commits.feature = commitAndPush(
    tree,
    'hanks',
    { 'hank.json': '{"v":"feature"}' },
    'refs/heads/feature/x',
  );
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'hankweave-remote-cache-'));
  server.requests.length = 0;
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(path, 'hank.json'), 'utf8');

describe('resolveRemoteHank()', () => {
  it('checks out the default branch, then answers from the cache without the network', async () => {
    const url = `${server.url}/hanks.git`;
    const first = await resolveRemoteHank(url, { cacheDir });
    expect(first).toMatchObject({
      commit: commits.main,
      kind: 'default',
      defaultBranch: 'main',
      contacted: true,
    });
    expect(read(first.hankPath)).toBe('{"v":"main"}');
    const count = server.requests.length;
    const second = await resolveRemoteHank(url, { cacheDir });
    expect(second).toMatchObject({ commit: commits.main, contacted: false });
    expect(server.requests.length).toBe(count);
  });

  it('resolves a branch with a slash, a tag (annotated), a full and an abbreviated commit', async () => {
    const base = `${server.url}/hanks.git`;
    expect(await resolveRemoteHank(`${base}#feature/x`, { cacheDir })).toMatchObject({
      kind: 'branch',
      commit: commits.feature,
    });
    expect(await resolveRemoteHank(`${base}#v1.0.0`, { cacheDir })).toMatchObject({
      kind: 'tag',
      commit: commits.main,
    });
    const full = await resolveRemoteHank(`${base}#${commits.feature}`, { cacheDir });
    expect(full).toMatchObject({ kind: 'commit', commit: commits.feature });
    expect(read(full.hankPath)).toBe('{"v":"feature"}');
    const short = (commits.main as string).slice(0, 8);
    expect(await resolveRemoteHank(`${base}#${short}:sub`, { cacheDir })).toMatchObject({
      kind: 'commit',
      commit: commits.main,
      source: { kind: 'git', url: base, ref: short, commit: commits.main, subdir: 'sub' },
    });
    // Tags and commits are kept forever: no request however old.
    server.requests.length = 0;
    const later = () => new Date(Date.now() + 365 * 24 * 3600 * 1000);
    await resolveRemoteHank(`${base}#v1.0.0`, { cacheDir, now: later });
    await resolveRemoteHank(`${base}#${short}:sub`, { cacheDir, now: later });
    expect(server.requests).toEqual([]);
  });

  it('re-resolves a branch after its TTL and sees it moved; offline it uses the cache', async () => {
    const tree = makeRepo('moving', { 'hank.json': '{"n":1}' });
    const url = `${server.url}/moving.git#main`;
    const first = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 60_000 });
    const moved = commitAndPush(tree, 'moving', { 'hank.json': '{"n":2}' }, 'refs/heads/main');
    // Within the TTL: the cached commit, no request.
    server.requests.length = 0;
    expect((await resolveRemoteHank(url, { cacheDir, branchTtlMs: 60_000 })).commit).toBe(
      first.commit,
    );
    expect(server.requests).toEqual([]);
    // Past it: asked again, the new commit.
    const again = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 0 });
    expect(again).toMatchObject({ commit: moved, contacted: true });
    expect(read(again.hankPath)).toBe('{"n":2}');
    // A pinned commit (a resume) is the old one, from the cache.
    const pinned = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 0, commit: first.commit });
    expect(read(pinned.hankPath)).toBe('{"n":1}');
    await server.stop();
    try {
      const offline = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 0 });
      expect(offline.commit).toBe(moved);
      expect(offline.offline?.resolvedAt).toEqual(expect.any(String));
      // The checkout deleted by hand: made again from the mirror, still offline.
      rmSync(offline.checkoutDir, { recursive: true });
      rmSync(`${offline.checkoutDir}.done`);
      const rebuilt = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 0 });
      expect(rebuilt.offline).toBeDefined();
      expect(read(rebuilt.hankPath)).toBe('{"n":2}');
      await expect(
        resolveRemoteHank(`${server.url}/hanks.git`, { cacheDir: join(cacheDir, 'empty') }),
      ).rejects.toMatchObject({ code: 'REMOTE_UNREACHABLE' });
    } finally {
      await server.restart();
    }
  });

  it('gives up on a remote that stops answering, at any point, and falls back on the cache', async () => {
    makeRepo('stalling', { 'hank.json': '{"s":1}' });
    // A proxy in front of the git server: `forward` passes requests through; `silent` accepts
    // and never answers; `halfway` sends the headers and part of the body, then nothing.
    let mode: 'forward' | 'silent' | 'halfway' = 'forward';
    const target = new URL(server.url);
    const proxy = createHttpServer((request, response) => {
      if (mode === 'silent') return;
      if (mode === 'halfway') {
        response.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement' });
        response.write('001e# service=git-upload-pack\n');
        return;
      }
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: request.url,
          method: request.method,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(upstream);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/stalling.git#main`;
    try {
      const first = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 0, timeoutMs: 400 });
      for (const stall of ['silent', 'halfway'] as const) {
        mode = stall;
        const started = Date.now();
        const offline = await resolveRemoteHank(url, { cacheDir, branchTtlMs: 0, timeoutMs: 400 });
        expect(Date.now() - started).toBeLessThan(5000);
        expect(offline).toMatchObject({ commit: first.commit, contacted: true });
        expect(offline.offline?.reason).toMatch(/timed out/i);
        // Nothing cached for this URL: the same stall is an error naming the URL, not a hang.
        await expect(
          resolveRemoteHank(url, { cacheDir: join(cacheDir, `none-${stall}`), timeoutMs: 400 }),
        ).rejects.toMatchObject({ code: 'REMOTE_UNREACHABLE' });
      }
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((done) => proxy.close(() => done()));
    }
  });

  it('refuses unknown refs, missing subdirs and ssh URLs with their codes', async () => {
    const base = `${server.url}/hanks.git`;
    await expect(resolveRemoteHank(`${base}#nope`, { cacheDir })).rejects.toMatchObject({
      code: 'REMOTE_REF_NOT_FOUND',
    });
    await expect(resolveRemoteHank(`${base}#main:missing`, { cacheDir })).rejects.toMatchObject({
      code: 'REMOTE_SUBDIR_NOT_FOUND',
    });
    await expect(resolveRemoteHank(`${server.url}/absent.git`, { cacheDir })).rejects.toMatchObject(
      {
        code: 'REMOTE_NOT_FOUND',
      },
    );
    await expect(
      resolveRemoteHank('git@example.invalid:o/r.git', { cacheDir }),
    ).rejects.toMatchObject({
      code: 'REMOTE_SSH_UNSUPPORTED',
      details: { https: 'https://example.invalid/o/r.git' },
    });
  });

  it('never writes the credentials of the URL into the cache', async () => {
    const url = server.url.replace('http://', 'http://alice:s3cret-token@');
    const resolved = await resolveRemoteHank(`${url}/hanks.git#v1.0.0`, { cacheDir });
    expect(resolved.source.url).toBe(`${server.url}/hanks.git`);
    expect(JSON.stringify(resolved)).not.toContain('s3cret');
    const files = readdirSync(cacheDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((file) => readFileSync(file).includes('s3cret'))).toEqual([]);
  });

  it('refuses a tree with a link out of it, and through links', async () => {
    const tree = makeRepo('hostile', { 'hank.json': '{}' });
    symlinkSync('/etc', join(tree, 'etc'));
    gitInTest(tree, ['add', '-A']);
    gitInTest(tree, ['commit', '-q', '-m', 'link']);
    gitInTest(tree, ['push', '-q', join(server.root, 'hostile.git'), 'HEAD:refs/heads/abs']);
    await expect(
      resolveRemoteHank(`${server.url}/hostile.git#abs`, { cacheDir }),
    ).rejects.toMatchObject({ code: 'REMOTE_UNSAFE_TREE' });
    const sneaky = makeRepo('sneaky', { 'hank.json': '{}', 'dir/keep': '' });
    symlinkSync('..', join(sneaky, 'dir', 'up')); // inside: dir/.. is the root
    symlinkSync('up/..', join(sneaky, 'dir', 'out')); // lexically dir/, really the root's parent
    gitInTest(sneaky, ['add', '-A']);
    gitInTest(sneaky, ['commit', '-q', '-m', 'links']);
    gitInTest(sneaky, ['push', '-q', join(server.root, 'sneaky.git'), 'HEAD:refs/heads/main']);
    await expect(
      resolveRemoteHank(`${server.url}/sneaky.git#main`, { cacheDir }),
    ).rejects.toMatchObject({ code: 'REMOTE_UNSAFE_TREE' });
    // Nothing half-written is left to be used later.
    expect(() => lstatSync(join(cacheDir, 'remote'))).not.toThrow();
    await expect(
      resolveRemoteHank(`${server.url}/hanks.git#main:../..`, { cacheDir }),
    ).rejects.toMatchObject({
      code: 'REMOTE_INVALID_URL',
    });
  });

  it("never reuses a checkout without its marker, and takes over a dead process's lock", async () => {
    const url = `${server.url}/hanks.git#v1.0.0`;
    const first = await resolveRemoteHank(url, { cacheDir });
    // A crash between the rename and the marker: the tree is there, its marker is not.
    rmSync(`${first.checkoutDir}.done`);
    writeFileSync(join(first.checkoutDir, 'junk'), 'left by a crash');
    mkdirSync(join(first.checkoutDir, '..', '..', 'lock'));
    writeFileSync(
      join(first.checkoutDir, '..', '..', 'lock', 'owner.json'),
      JSON.stringify({ pid: 2 ** 22 + 17, host: hostname(), at: new Date().toISOString() }),
    );
    const again = await resolveRemoteHank(url, { cacheDir, lockTimeoutMs: 5_000 });
    expect(again.checkoutDir).toBe(first.checkoutDir);
    expect(readdirSync(again.checkoutDir)).not.toContain('junk');
    expect(readdirSync(join(again.checkoutDir, '..', '..'))).not.toContain('lock');
  });

  it('lets separate processes resolve one URL at once into one checkout (dist/)', async () => {
    const dist = new URL('../dist/index.js', import.meta.url).href;
    const script = `const { resolveRemoteHank } = await import(${JSON.stringify(dist)});
      const hank = await resolveRemoteHank(process.argv[1], { cacheDir: process.argv[2] });
      process.stdout.write(JSON.stringify({ commit: hank.commit, dir: hank.checkoutDir }));`;
    const url = `${server.url}/hanks.git#feature/x`;
    const runs = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<string>((resolve, reject) => {
            execFile(
              process.execPath,
              ['--input-type=module', '-e', script, url, cacheDir],
              (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
            );
          }),
      ),
    );
    const results = runs.map((out) => JSON.parse(out) as { commit: string; dir: string });
    expect(new Set(results.map((one) => `${one.commit} ${one.dir}`)).size).toBe(1);
    expect(results[0]?.commit).toBe(commits.feature);
    const trees = readdirSync(join(results[0]?.dir as string, '..'));
    expect(trees.filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    expect(read(results[0]?.dir as string)).toBe('{"v":"feature"}');
  });

  it('lets concurrent resolutions of one URL share one checkout', async () => {
    const url = `${server.url}/hanks.git#feature/x`;
    const all = await Promise.all([1, 2, 3].map(() => resolveRemoteHank(url, { cacheDir })));
    expect(new Set(all.map((one) => one.checkoutDir)).size).toBe(1);
    expect(read(all[0]?.hankPath as string)).toBe('{"v":"feature"}');
  });
});
