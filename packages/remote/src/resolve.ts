import * as fs from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside, writeFileAtomic } from '@hankweave/durable-io';
import type { HankSource } from '@hankweave/types';
import { branchTtlFromEnv, remoteTimeoutFromEnv, repositoryCacheDir } from './cache-dir.js';
import { writeCommitTree } from './checkout.js';
import { defaultCacheDir } from './default-cache-dir.js';
import { RemoteError } from './errors.js';
import { isomorphicGit, isomorphicHttp } from './iso-git.js';
import { withRepositoryLock } from './lock.js';
import { httpsEquivalent, parseRemoteHankUrl, type RemoteHankSpec } from './parse-url.js';

/** What a ref turned out to be. `default` is the remote's HEAD (no ref given). */
export type ResolvedRefKind = 'branch' | 'default' | 'tag' | 'commit';

export interface ResolveRemoteHankOptions {
  /** hankweave's cache directory (default {@link defaultCacheDir}: `HANKWEAVE_CACHE_DIR`, XDG, `~/.cache/hankweave`). */
  cacheDir?: string;
  /** How long a resolved branch (or default branch) is used without asking the remote (default `HANKWEAVE_REMOTE_TTL_SECONDS`, else 10 min). */
  branchTtlMs?: number;
  /** Check out exactly this commit (40 hex digits), whatever the ref says now: a resume. */
  commit?: string;
  /** How long to wait for another process's lock on the repository (default 120 s). */
  lockTimeoutMs?: number;
  /**
   * How long a request to the remote may go without a byte (default
   * `HANKWEAVE_REMOTE_TIMEOUT_SECONDS`, else 30 s): then the remote counts as unreachable.
   */
  timeoutMs?: number;
  /** Read for the defaults above (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
}

export interface ResolvedRemoteHank {
  /** The URL without credentials, the ref and the subdir, as parsed. */
  spec: Omit<RemoteHankSpec, 'cloneUrl'>;
  /** The commit checked out (40 hex digits). */
  commit: string;
  kind: ResolvedRefKind;
  /** The branch HEAD named, when no ref was given and the remote was asked. */
  defaultBranch?: string;
  /** The checkout of the whole commit (immutable; shared by every run of that commit). */
  checkoutDir: string;
  /** The hank's directory (or hank.json) inside it: `checkoutDir` joined with the subdir. */
  hankPath: string;
  /** True when the remote was asked this time (false: the cache answered). */
  contacted: boolean;
  /**
   * Set when the remote could not be reached and a cached resolution was used instead: when it
   * was resolved, and why the remote failed.
   */
  offline?: { resolvedAt: string; reason: string };
  /** For execution-meta.json: `{ kind: 'git', url, ref?, commit, subdir? }` (no credentials). */
  source: Extract<HankSource, { kind: 'git' }>;
}

interface RefRecord {
  kind: ResolvedRefKind;
  commit: string;
  resolvedAt: string;
  defaultBranch?: string;
}
interface RefsFile {
  version: 1;
  url: string;
  refs: Record<string, RefRecord>;
}

const FULL_COMMIT = /^[0-9a-f]{40}$/;
const SHORT_COMMIT = /^[0-9a-f]{4,39}$/;
/** Name of the `refs.json` key of "no ref given" (the remote's HEAD). */
const DEFAULT_KEY = 'HEAD';

/**
 * Resolves a remote hank to a checkout on this machine (see the README for the grammar and the
 * cache). Tags and commits are resolved once and kept; a branch (or the default branch) is used
 * from the cache for `branchTtlMs`, then asked again (one `info/refs` request). When the remote
 * cannot be reached, a cached resolution of the same ref is used, however old, and `offline`
 * says so. Each commit is checked out once, into `<repo>/trees/<commit>/` (written in a
 * temporary directory, renamed, then marked complete); a checkout without its marker is never
 * used.
 *
 * @throws {RemoteError} REMOTE_INVALID_URL, REMOTE_SSH_UNSUPPORTED, REMOTE_UNREACHABLE (nothing
 *   cached), REMOTE_NOT_FOUND, REMOTE_AUTH_FAILED, REMOTE_REF_NOT_FOUND, REMOTE_UNSAFE_TREE,
 *   REMOTE_SUBDIR_NOT_FOUND, REMOTE_LOCK_TIMEOUT
 */
export async function resolveRemoteHank(
  url: string | RemoteHankSpec,
  options: ResolveRemoteHankOptions = {},
): Promise<ResolvedRemoteHank> {
  const spec = typeof url === 'string' ? parseRemoteHankUrl(url) : url;
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const ttl = options.branchTtlMs ?? branchTtlFromEnv(env);
  if (spec.transport === 'ssh') {
    const https = httpsEquivalent(spec.url);
    throw new RemoteError(
      'REMOTE_SSH_UNSUPPORTED',
      `${spec.url} is an ssh URL, and hankweave fetches git over HTTPS only (isomorphic-git has no ssh transport); ${https ? `use ${https}${suffixOf(spec)}` : 'use the https:// URL of the repository'}, with a token in the URL (https://user:token@host/…) for a private one`,
      { details: { url: spec.url, ...(https ? { https } : {}) } },
    );
  }
  const repo = new RepositoryCache(
    repositoryCacheDir(options.cacheDir ?? defaultCacheDir(env), spec.url),
    spec,
    options.lockTimeoutMs ?? 120_000,
    options.timeoutMs ?? remoteTimeoutFromEnv(env),
  );
  const found = await findCommit(repo, spec, options.commit, ttl, now);
  const checkoutDir = await repo.checkout(found.commit);
  const hankPath = await insideCheckout(checkoutDir, spec, found.commit);
  const { cloneUrl: _, ...shown } = spec;
  return {
    spec: shown,
    commit: found.commit,
    kind: found.kind,
    ...(found.defaultBranch !== undefined ? { defaultBranch: found.defaultBranch } : {}),
    checkoutDir,
    hankPath,
    contacted: repo.contacted,
    ...(found.offline ? { offline: found.offline } : {}),
    source: {
      kind: 'git',
      url: spec.url,
      ...(spec.ref !== undefined ? { ref: spec.ref } : {}),
      commit: found.commit,
      ...(spec.subdir !== undefined ? { subdir: spec.subdir } : {}),
    },
  };
}

type Found = RefRecord & { offline?: { resolvedAt: string; reason: string } };

async function findCommit(
  repo: RepositoryCache,
  spec: RemoteHankSpec,
  pinned: string | undefined,
  ttl: number,
  now: () => Date,
): Promise<Found> {
  const at = () => now().toISOString();
  if (pinned !== undefined) {
    if (!FULL_COMMIT.test(pinned)) {
      throw new RemoteError('REMOTE_REF_NOT_FOUND', `${pinned} is not a full commit id`, {
        details: { url: spec.url, ref: pinned },
      });
    }
    if (!(await repo.isCheckedOut(pinned))) await repo.fetchCommit(pinned);
    return { kind: 'commit', commit: pinned, resolvedAt: at() };
  }
  const ref = spec.ref;
  if (ref !== undefined && FULL_COMMIT.test(ref)) {
    // A full commit id needs no listing: it is in the cache, or fetched with everything.
    if (!(await repo.isCheckedOut(ref))) await repo.fetchCommit(ref);
    return { kind: 'commit', commit: ref, resolvedAt: at() };
  }
  const key = ref ?? DEFAULT_KEY;
  const cached = (await repo.readRefs()).refs[key];
  const usable = cached !== undefined && (await repo.isCheckedOut(cached.commit));
  if (usable) {
    const fixed = cached.kind === 'tag' || cached.kind === 'commit';
    if (fixed || now().getTime() - Date.parse(cached.resolvedAt) < ttl) return cached;
  }
  let advertised: Awaited<ReturnType<RepositoryCache['listRefs']>>;
  try {
    advertised = await repo.listRefs();
  } catch (error) {
    if (RemoteError.is(error, 'REMOTE_UNREACHABLE') && cached !== undefined) {
      // Its checkout, or (when only the checkout was deleted) one made again from the mirror.
      if (
        usable ||
        (await repo.checkout(cached.commit).then(
          () => true,
          () => false,
        ))
      ) {
        return { ...cached, offline: { resolvedAt: cached.resolvedAt, reason: error.message } };
      }
    }
    throw error;
  }
  const record = await resolveAgainst(repo, spec, advertised, at());
  await repo.checkout(record.commit);
  await repo.recordRef(key, record);
  return record;
}

async function resolveAgainst(
  repo: RepositoryCache,
  spec: RemoteHankSpec,
  refs: { ref: string; oid: string; target?: string; peeled?: string }[],
  resolvedAt: string,
): Promise<RefRecord> {
  const byName = new Map(refs.map((entry) => [entry.ref, entry]));
  const ref = spec.ref;
  if (ref === undefined) {
    const head = byName.get('HEAD');
    if (head === undefined) {
      throw new RemoteError('REMOTE_REF_NOT_FOUND', `${spec.url} has no default branch (HEAD)`, {
        details: { url: spec.url },
      });
    }
    const branch = head.target?.replace(/^refs\/heads\//, '');
    return {
      kind: 'default',
      commit: head.oid,
      resolvedAt,
      ...(branch !== undefined ? { defaultBranch: branch } : {}),
    };
  }
  const branch = byName.get(`refs/heads/${ref}`);
  if (branch) return { kind: 'branch', commit: branch.oid, resolvedAt };
  const tag = byName.get(`refs/tags/${ref}`);
  if (tag) {
    const peeled = tag.peeled ?? byName.get(`refs/tags/${ref}^{}`)?.oid ?? tag.oid;
    return { kind: 'tag', commit: peeled, resolvedAt };
  }
  if (SHORT_COMMIT.test(ref) || FULL_COMMIT.test(ref)) {
    const commit = await repo.expandCommit(ref);
    return { kind: 'commit', commit, resolvedAt };
  }
  throw new RemoteError(
    'REMOTE_REF_NOT_FOUND',
    `${spec.url} has no branch, tag or commit named ${ref}`,
    { details: { url: spec.url, ref } },
  );
}

/** The hank's path inside the checkout; it must exist and stay inside (links included). */
async function insideCheckout(
  checkoutDir: string,
  spec: RemoteHankSpec,
  commit: string,
): Promise<string> {
  const path =
    spec.subdir === undefined ? checkoutDir : join(checkoutDir, ...spec.subdir.split('/'));
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new RemoteError(
      'REMOTE_SUBDIR_NOT_FOUND',
      `${spec.url} at ${commit.slice(0, 12)} has no ${spec.subdir}`,
      { details: { url: spec.url, commit, subdir: spec.subdir } },
    );
  }
  if (!isInside(await realpath(checkoutDir), real)) {
    throw new RemoteError(
      'REMOTE_UNSAFE_TREE',
      `${spec.subdir} leads outside the checkout of ${spec.url}`,
      { details: { url: spec.url, commit, subdir: spec.subdir } },
    );
  }
  return path;
}

function suffixOf(spec: RemoteHankSpec): string {
  return `${spec.ref !== undefined ? `#${spec.ref}` : ''}${spec.subdir !== undefined ? `${spec.ref !== undefined ? ':' : '#:'}${spec.subdir}` : ''}`;
}

/**
 * One repository's folder in the cache:
 * `repo.git/` (a bare mirror, fetched with every branch and tag), `refs.json` (each ref as last
 * resolved: kind, commit, when), `trees/<commit>/` + `trees/<commit>.done` (checkouts and the
 * marker written after each one's rename), `lock/` (held while fetching and checking out).
 */
class RepositoryCache {
  contacted = false;
  private readonly gitdir: string;
  private readonly trees: string;
  private readonly refsFile: string;

  constructor(
    readonly dir: string,
    private readonly spec: RemoteHankSpec,
    private readonly lockTimeoutMs: number,
    private readonly timeoutMs: number,
  ) {
    this.gitdir = join(dir, 'repo.git');
    this.trees = join(dir, 'trees');
    this.refsFile = join(dir, 'refs.json');
  }

  treeOf(commit: string): string {
    return join(this.trees, commit);
  }

  async isCheckedOut(commit: string): Promise<boolean> {
    try {
      const marker = JSON.parse(await readFile(`${this.treeOf(commit)}.done`, 'utf8'));
      return marker?.commit === commit && (await stat(this.treeOf(commit))).isDirectory();
    } catch {
      return false;
    }
  }

  async readRefs(): Promise<RefsFile> {
    try {
      const parsed = JSON.parse(await readFile(this.refsFile, 'utf8')) as RefsFile;
      if (parsed?.version === 1 && typeof parsed.refs === 'object' && parsed.refs !== null) {
        const refs: Record<string, RefRecord> = {};
        for (const [key, value] of Object.entries(parsed.refs)) {
          if (
            value &&
            typeof value.commit === 'string' &&
            FULL_COMMIT.test(value.commit) &&
            typeof value.resolvedAt === 'string' &&
            ['branch', 'default', 'tag', 'commit'].includes(value.kind)
          ) {
            refs[key] = value;
          }
        }
        return { version: 1, url: this.spec.url, refs };
      }
    } catch {
      // Missing or torn: nothing cached.
    }
    return { version: 1, url: this.spec.url, refs: {} };
  }

  async recordRef(key: string, record: RefRecord): Promise<void> {
    await this.locked(async () => {
      const file = await this.readRefs();
      file.refs[key] = record;
      await writeFileAtomic(this.refsFile, `${JSON.stringify(file, null, 2)}\n`, {
        fsync: false,
      });
    });
  }

  /** The server's refs (`git ls-remote`: one GET of `info/refs`), HEAD's target included. */
  async listRefs(): Promise<{ ref: string; oid: string; target?: string; peeled?: string }[]> {
    const git = await isomorphicGit();
    const http = await isomorphicHttp(this.timeoutMs);
    this.contacted = true;
    try {
      const refs = await git.listServerRefs({
        http: http.client,
        url: this.spec.cloneUrl,
        protocolVersion: 1,
        symrefs: true,
        peelTags: true,
      });
      const failure = http.failure();
      if (failure) throw failure;
      return refs;
    } catch (error) {
      throw this.networkError(error);
    }
  }

  /** A commit id from its abbreviation (fetching everything first when it is not here). */
  async expandCommit(short: string): Promise<string> {
    const git = await isomorphicGit();
    const expand = () => git.expandOid({ fs, gitdir: this.gitdir, oid: short });
    const oid = await this.locked(async () => {
      await this.ensureMirror();
      try {
        return await expand();
      } catch {
        await this.fetchAll();
        return expand().catch(() => undefined);
      }
    });
    if (oid === undefined || !(await this.isCommit(oid))) {
      throw new RemoteError(
        'REMOTE_REF_NOT_FOUND',
        `${this.spec.url} has no branch, tag or commit named ${short}`,
        { details: { url: this.spec.url, ref: short } },
      );
    }
    return oid;
  }

  /** Makes sure `commit` is in the mirror, fetching when it is not. */
  async fetchCommit(commit: string): Promise<void> {
    await this.locked(async () => {
      await this.ensureMirror();
      if (!(await this.isCommit(commit))) await this.fetchAll();
    });
    if (!(await this.isCommit(commit))) {
      throw new RemoteError(
        'REMOTE_REF_NOT_FOUND',
        `${this.spec.url} has no commit ${commit} on any branch or tag`,
        { details: { url: this.spec.url, ref: commit } },
      );
    }
  }

  /** The checkout of `commit` (made once: a temporary directory, renamed, then its marker). */
  async checkout(commit: string): Promise<string> {
    const tree = this.treeOf(commit);
    if (await this.isCheckedOut(commit)) return tree;
    await this.locked(async () => {
      if (await this.isCheckedOut(commit)) return;
      await this.ensureMirror();
      if (!(await this.isCommit(commit))) await this.fetchAll();
      await mkdir(this.trees, { recursive: true });
      // A directory without its marker is what a crash left: never used, replaced.
      await rm(tree, { recursive: true, force: true });
      const temp = join(this.trees, `.tmp-${process.pid}-${Date.now().toString(36)}`);
      await mkdir(temp);
      try {
        const written = await writeCommitTree(this.gitdir, commit, temp, this.spec.url);
        await rename(temp, tree);
        await writeFileAtomic(
          `${tree}.done`,
          `${JSON.stringify({ commit, files: written.files, completedAt: new Date().toISOString() })}\n`,
        );
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    });
    return tree;
  }

  /** Removes checkouts a crashed process left half-written (their temp directories). */
  async sweepTemps(): Promise<void> {
    const names = await readdir(this.trees).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name.startsWith('.tmp-'))
        .map((name) => rm(join(this.trees, name), { recursive: true, force: true })),
    );
  }

  private async isCommit(oid: string): Promise<boolean> {
    const git = await isomorphicGit();
    try {
      await git.readCommit({ fs, gitdir: this.gitdir, oid });
      return true;
    } catch {
      return false;
    }
  }

  private async ensureMirror(): Promise<void> {
    const git = await isomorphicGit();
    if (
      await stat(join(this.gitdir, 'HEAD')).then(
        () => true,
        () => false,
      )
    )
      return;
    await mkdir(this.dir, { recursive: true });
    await git.init({ fs, gitdir: this.gitdir, bare: true });
    // Where fetched branches go; the URL itself is passed to each fetch, never stored.
    await git.setConfig({
      fs,
      gitdir: this.gitdir,
      path: 'remote.origin.fetch',
      value: '+refs/heads/*:refs/remotes/origin/*',
    });
  }

  /** Every branch and tag of the remote into the mirror (the URL is never written to its config). */
  private async fetchAll(): Promise<void> {
    const git = await isomorphicGit();
    const http = await isomorphicHttp(this.timeoutMs);
    this.contacted = true;
    try {
      await git.fetch({
        fs,
        http: http.client,
        gitdir: this.gitdir,
        url: this.spec.cloneUrl,
        singleBranch: false,
        tags: true,
      });
      const failure = http.failure();
      if (failure) throw failure;
    } catch (error) {
      throw this.networkError(error);
    }
  }

  private held = false;
  /** `work` under the repository's lock (re-entrant within this object). */
  private async locked<T>(work: () => Promise<T>): Promise<T> {
    if (this.held) return work();
    await mkdir(this.dir, { recursive: true });
    return withRepositoryLock(this.dir, this.lockTimeoutMs, async () => {
      this.held = true;
      try {
        await this.sweepTemps();
        return await work();
      } finally {
        this.held = false;
      }
    });
  }

  private networkError(error: unknown): RemoteError {
    if (RemoteError.is(error)) return error;
    const url = this.spec.url;
    const status = (error as { data?: { statusCode?: unknown } })?.data?.statusCode;
    if (status === 401 || status === 403) {
      return new RemoteError(
        'REMOTE_AUTH_FAILED',
        `${url} refused access (HTTP ${status}); for a private repository put a token in the URL: https://user:token@host/…`,
        { details: { url, status } },
      );
    }
    if (status === 404) {
      return new RemoteError('REMOTE_NOT_FOUND', `${url}: no git repository there (HTTP 404)`, {
        details: { url, status },
      });
    }
    const code = (error as { code?: unknown })?.code;
    const message = redact((error as Error)?.message ?? String(error), this.spec.cloneUrl, url);
    const why =
      typeof status === 'number'
        ? `HTTP ${status}`
        : typeof code === 'string' && /^E[A-Z_]+$/.test(code)
          ? code
          : message;
    return new RemoteError('REMOTE_UNREACHABLE', `${url} could not be reached (${why})`, {
      details: { url, reason: why },
    });
  }
}

/** `text` with the credentialed URL replaced by the shown one (messages of libraries). */
function redact(text: string, secret: string, shown: string): string {
  return secret === shown ? text : text.split(secret).join(shown);
}
