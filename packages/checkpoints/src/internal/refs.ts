import { dirname, join } from 'node:path';
import { hasErrno } from '@hankweave/durable-io';
import { CheckpointError } from '../errors.js';
import type { Io } from './io.js';
import { isomorphicGit } from './iso-git.js';

/** Where HEAD points: a branch (`refs/heads/x`) or, detached, a commit. */
export type HeadRef = { branch: string; sha?: undefined } | { branch?: undefined; sha: string };

const SHA = /^[0-9a-f]{40}$/;

/**
 * Branches and HEAD. Listing goes through isomorphic-git; single refs are read directly; writing
 * is ours: git's lock protocol (`{ref}.lock` created with O_EXCL, fsynced, renamed over the ref)
 * so a concurrent native git fails instead of interleaving, and the ref is only ever replaced
 * whole. Callers write objects first, so a ref never points at a missing commit.
 */
export class Refs {
  /**
   * @param headFile this work tree's HEAD: the repository's own for agentRoot, a private one for
   * a branch work tree (branches are shared, HEAD never is).
   */
  constructor(
    private readonly io: Io,
    private readonly gitDir: string,
    private readonly headFile = join(gitDir, 'HEAD'),
  ) {}

  /** Reads HEAD without resolving it. */
  async head(): Promise<HeadRef> {
    const text = (await this.io.readOptional(this.headFile))?.toString('latin1').trim();
    if (text?.startsWith('ref: refs/heads/')) return { branch: text.slice(16) };
    if (text && SHA.test(text)) return { sha: text };
    throw new CheckpointError(
      'CHECKPOINT_REPO_CORRUPT',
      'HEAD of the checkpoint repository is unreadable',
      {
        details: { gitDir: this.gitDir, headFile: this.headFile, head: text ?? null },
      },
    );
  }

  /**
   * The commit a branch points at, or undefined when it does not exist: the loose ref, else the
   * `packed-refs` line (after a hand-run `git gc`). Read directly, on every checkpoint, rather
   * than through isomorphic-git, whose import alone costs more than a checkpoint.
   */
  async branch(name: string): Promise<string | undefined> {
    const loose = (await this.io.readOptional(join(this.gitDir, 'refs', 'heads', name)))
      ?.toString('latin1')
      .trim();
    if (loose && SHA.test(loose)) return loose;
    const packed =
      (await this.io.readOptional(join(this.gitDir, 'packed-refs')))?.toString('utf8') ?? '';
    const suffix = ` refs/heads/${name}`;
    for (const line of packed.split('\n')) {
      if (line.endsWith(suffix) && SHA.test(line.slice(0, 40))) return line.slice(0, 40);
    }
    return undefined;
  }

  /**
   * Every branch name (loose and packed), sorted. A `{ref}.lock` is another engine's write in
   * progress (or a killed one's leftover), never a branch: git forbids the suffix in ref names.
   */
  async branches(): Promise<string[]> {
    const { listBranches } = await isomorphicGit();
    return (await listBranches({ fs: this.io.isoFs, gitdir: this.gitDir }))
      .filter((name) => !name.endsWith('.lock'))
      .sort();
  }

  /** Points a branch at a commit (created if missing). */
  async setBranch(name: string, sha: string): Promise<void> {
    const path = join(this.gitDir, 'refs', 'heads', name);
    await this.io.fs.mkdir(dirname(path), { recursive: true });
    await this.writeLocked(path, `${sha}\n`);
  }

  /** Points HEAD at a branch or, detached, at a commit. */
  async setHead(target: HeadRef): Promise<void> {
    const text =
      target.branch !== undefined ? `ref: refs/heads/${target.branch}\n` : `${target.sha}\n`;
    await this.writeLocked(this.headFile, text);
  }

  private async writeLocked(path: string, text: string): Promise<void> {
    try {
      await this.io.writeAtomic(path, text, { exclusive: true, syncDir: true });
    } catch (error) {
      if (hasErrno(error, 'EEXIST')) {
        throw new CheckpointError(
          'CHECKPOINT_LOCKED',
          `${path}.lock exists: another git process is writing`,
          {
            cause: error,
            details: { lock: `${path}.lock` },
          },
        );
      }
      throw error;
    }
  }
}

/** Throws `CHECKPOINT_INVALID_INPUT` unless `run-{runId}` is a branch name git accepts. */
export function assertRunId(runId: string): void {
  const bad =
    typeof runId !== 'string' ||
    runId.length === 0 ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: git forbids control characters in refs
    /[\x00-\x20\x7f~^:?*[\\/]/.test(runId) ||
    runId.includes('..') ||
    runId.includes('@{') ||
    runId.endsWith('.') ||
    runId.endsWith('.lock');
  if (bad) {
    throw new CheckpointError(
      'CHECKPOINT_INVALID_INPUT',
      `run id ${JSON.stringify(runId)} cannot name a git branch`,
      {
        details: { runId },
      },
    );
  }
}
