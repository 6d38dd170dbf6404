import { CheckpointError } from '../errors.js';
import type { CheckpointInfo } from '../types.js';
import type { Io } from './io.js';
import { isomorphicGit } from './iso-git.js';
import { parseMessage } from './message.js';
import type { ObjectStore } from './object-store.js';
import { type ParsedCommit, parseCommit } from './objects.js';
import type { Refs } from './refs.js';

const FULL_SHA = /^[0-9a-f]{40}$/;
const PARTIAL_SHA = /^[0-9a-f]{4,39}$/;

/** Commits reachable from the refs, with which branches reach each one. */
interface Reachable {
  commits: Map<string, ParsedCommit>;
  branchesOf: Map<string, string[]>;
}

/**
 * The commit graph: resolve, list, rev-list. Commits never change, so every parsed commit is
 * cached for the engine's lifetime and the ones the engine writes are added as it writes them;
 * listing after the first call only re-reads the branch tips.
 */
export class History {
  private readonly commits = new Map<string, ParsedCommit>();

  constructor(
    private readonly io: Io,
    private readonly gitDir: string,
    private readonly store: ObjectStore,
    private readonly refs: Refs,
  ) {}

  /** Adds a commit this engine just wrote. */
  remember(sha: string, commit: ParsedCommit): void {
    this.commits.set(sha, commit);
  }

  /** The parsed commit, or undefined when `sha` is not a commit in the repository. */
  async tryCommit(sha: string): Promise<ParsedCommit | undefined> {
    const cached = this.commits.get(sha);
    if (cached) return cached;
    const object = await this.store.read(sha);
    if (object?.type !== 'commit') return undefined;
    const commit = parseCommit(object.content, sha);
    this.commits.set(sha, commit);
    return commit;
  }

  /** The parsed commit; a missing one means a broken graph. */
  async commit(sha: string): Promise<ParsedCommit> {
    const commit = await this.tryCommit(sha);
    if (!commit) {
      throw new CheckpointError(
        'CHECKPOINT_REPO_CORRUPT',
        `commit ${sha} is missing from the checkpoint repository`,
        {
          details: { sha },
        },
      );
    }
    return commit;
  }

  /** The commit HEAD points at. */
  async headSha(): Promise<{ sha: string; branch: string | null }> {
    const head = await this.refs.head();
    if (head.sha !== undefined) return { sha: head.sha, branch: null };
    const sha = await this.refs.branch(head.branch);
    if (!sha) {
      throw new CheckpointError(
        'CHECKPOINT_REPO_CORRUPT',
        `HEAD points at missing branch ${head.branch}`,
        {
          details: { branch: head.branch },
        },
      );
    }
    return { sha, branch: head.branch };
  }

  /** Every commit reachable from a branch or HEAD, and the branches that reach it. */
  async reachable(): Promise<Reachable> {
    const tips: { branch: string | null; sha: string }[] = [];
    for (const name of await this.refs.branches()) {
      const sha = await this.refs.branch(name);
      if (sha) tips.push({ branch: name, sha });
    }
    tips.push({ branch: null, sha: (await this.headSha()).sha });
    const commits = new Map<string, ParsedCommit>();
    const branchesOf = new Map<string, string[]>();
    for (const { branch, sha: start } of tips) {
      const seen = new Set<string>();
      const stack = [start];
      while (stack.length > 0) {
        const sha = stack.pop() as string;
        if (seen.has(sha)) continue;
        seen.add(sha);
        const commit = await this.commit(sha);
        commits.set(sha, commit);
        if (branch !== null) {
          const list = branchesOf.get(sha);
          if (list) list.push(branch);
          else branchesOf.set(sha, [branch]);
        }
        stack.push(...commit.parents);
      }
    }
    return { commits, branchesOf };
  }

  /**
   * Full sha of a commit named by a full or partial (≥ 4 hex) sha, a branch name or `HEAD`.
   * Partial shas are matched against every commit reachable from any branch first (git's
   * commit disambiguation), then against all stored objects.
   */
  async resolve(ref: string): Promise<string> {
    const text = typeof ref === 'string' ? ref.trim() : '';
    if (text === 'HEAD') return (await this.headSha()).sha;
    const lower = text.toLowerCase();
    if (FULL_SHA.test(lower)) {
      if (await this.tryCommit(lower)) return lower;
      throw notFound(text);
    }
    if (/^[\w./-]+$/.test(text) && !text.includes('..') && !text.endsWith('.lock')) {
      const branch = await this.refs.branch(text);
      if (branch) return branch;
    }
    if (!PARTIAL_SHA.test(lower)) {
      if (/^[0-9a-f]{0,3}$/.test(lower)) {
        throw new CheckpointError(
          'CHECKPOINT_INVALID_INPUT',
          'a partial sha needs at least 4 hex digits',
          {
            details: { ref: text },
          },
        );
      }
      throw notFound(text);
    }
    const { commits } = await this.reachable();
    const matches = [...commits.keys()].filter((sha) => sha.startsWith(lower)).sort();
    if (matches.length === 1) return matches[0] as string;
    if (matches.length > 1) throw ambiguous(text, matches, commits);
    let expanded: string;
    try {
      const { expandOid } = await isomorphicGit();
      expanded = await expandOid({ fs: this.io.isoFs, gitdir: this.gitDir, oid: lower });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'AmbiguousError') throw ambiguous(text, [], commits, error);
      if (code === 'NotFoundError') throw notFound(text);
      throw error;
    }
    if (await this.tryCommit(expanded)) return expanded;
    throw notFound(text);
  }

  /** Checkpoint commits reachable from any branch or HEAD, newest first. */
  async list(): Promise<CheckpointInfo[]> {
    const { commits, branchesOf } = await this.reachable();
    const generation = generations(commits);
    const infos: (CheckpointInfo & { order: number; gen: number })[] = [];
    for (const [sha, commit] of commits) {
      const parsed = parseMessage(commit.message, commit.time);
      if (!parsed) continue;
      const branches = (branchesOf.get(sha) ?? []).sort();
      const own = `run-${parsed.runId}`;
      const time = Date.parse(parsed.timestamp);
      infos.push({
        sha,
        ...parsed,
        branch: branches.includes(own) ? own : (branches[0] ?? null),
        branches,
        parents: [...commit.parents],
        message: commit.message,
        order: Number.isNaN(time) ? commit.time * 1000 : time,
        gen: generation.get(sha) ?? 0,
      });
    }
    infos.sort((a, b) => b.order - a.order || b.gen - a.gen || (a.sha < b.sha ? -1 : 1));
    return infos.map(({ order: _order, gen: _gen, ...info }) => info);
  }

  /** Like `git rev-list a..b`: commits reachable from b but not from a, newest first. */
  async between(from: string, to: string): Promise<string[]> {
    const excluded = new Set<string>();
    const mark = [from];
    while (mark.length > 0) {
      const sha = mark.pop() as string;
      if (excluded.has(sha)) continue;
      excluded.add(sha);
      mark.push(...(await this.commit(sha)).parents);
    }
    const found = new Map<string, ParsedCommit>();
    const stack = [to];
    while (stack.length > 0) {
      const sha = stack.pop() as string;
      if (excluded.has(sha) || found.has(sha)) continue;
      const commit = await this.commit(sha);
      found.set(sha, commit);
      stack.push(...commit.parents);
    }
    const generation = generations(found);
    return [...found.keys()].sort(
      (a, b) =>
        (found.get(b) as ParsedCommit).time - (found.get(a) as ParsedCommit).time ||
        (generation.get(b) ?? 0) - (generation.get(a) ?? 0),
    );
  }
}

/** Distance from the root for each commit (parents outside the map count as 0). */
function generations(commits: ReadonlyMap<string, ParsedCommit>): Map<string, number> {
  const result = new Map<string, number>();
  for (const start of commits.keys()) {
    const stack = [start];
    while (stack.length > 0) {
      const sha = stack[stack.length - 1] as string;
      if (result.has(sha)) {
        stack.pop();
        continue;
      }
      const parents = commits.get(sha)?.parents.filter((parent) => commits.has(parent)) ?? [];
      const pending = parents.filter((parent) => !result.has(parent));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      result.set(sha, 1 + Math.max(0, ...parents.map((parent) => result.get(parent) ?? 0)));
      stack.pop();
    }
  }
  return result;
}

function notFound(ref: string): CheckpointError {
  return new CheckpointError(
    'CHECKPOINT_NOT_FOUND',
    `no checkpoint matches ${JSON.stringify(ref)}`,
    {
      details: { ref },
    },
  );
}

function ambiguous(
  ref: string,
  candidates: string[],
  commits: ReadonlyMap<string, ParsedCommit>,
  cause?: unknown,
): CheckpointError {
  const listed = candidates.map((sha) => ({
    sha,
    subject: commits.get(sha)?.message.split('\n')[0] ?? '',
  }));
  return new CheckpointError(
    'CHECKPOINT_AMBIGUOUS',
    `${JSON.stringify(ref)} matches ${candidates.length || 'several'} objects: ${candidates.join(', ') || 'use more digits'}`,
    { cause, details: { ref, candidates: listed } },
  );
}
