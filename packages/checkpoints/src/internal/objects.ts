import { createHash } from 'node:crypto';
import { CheckpointError } from '../errors.js';

/** The git object types this package reads and writes. */
export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** Git file modes as numbers (what the index stores) ... */
export const MODE_FILE = 0o100644;
export const MODE_EXEC = 0o100755;
export const MODE_LINK = 0o120000;
export const MODE_TREE = 0o40000;
export const MODE_GITLINK = 0o160000;

/** The empty tree's id, which git knows without storing it; we store it anyway for fsck. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** ... and as the strings trees use (git writes trees' `40000` without a leading zero). */
export function modeString(mode: number): string {
  return mode.toString(8);
}

/** Object id of `content` as a git object of `type`: SHA-1 over `"{type} {len}\0" + content`. */
export function hashObject(type: ObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** One entry of a tree object. */
export interface TreeEntry {
  name: string;
  mode: number;
  oid: string;
}

/** Serialises entries that are already in git's order (see `compareGitPaths`). */
export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  for (const entry of entries) {
    const head = Buffer.from(`${modeString(entry.mode)} ${entry.name}\0`);
    parts.push(head, Buffer.from(entry.oid, 'hex'));
    size += head.length + 20;
  }
  return Buffer.concat(parts, size);
}

/** Parses a tree object; non-canonical file modes (old `100664`) read as regular files. */
export function parseTree(content: Uint8Array, oid: string): TreeEntry[] {
  const buffer = Buffer.from(content.buffer, content.byteOffset, content.length);
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < buffer.length) {
    const space = buffer.indexOf(0x20, at);
    const nul = space < 0 ? -1 : buffer.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > buffer.length) {
      throw new CheckpointError('CHECKPOINT_REPO_CORRUPT', `tree ${oid} is malformed`, {
        details: { oid },
      });
    }
    let mode = Number.parseInt(buffer.toString('latin1', at, space), 8);
    if ((mode & 0o170000) === 0o100000 && mode !== MODE_EXEC) mode = MODE_FILE;
    const name = buffer.toString('utf8', space + 1, nul);
    assertEntryName(name, oid);
    entries.push({ mode, name, oid: buffer.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

/**
 * Rejects a tree entry name that would leave its directory when joined to a path (`..`, `.`, a
 * slash, empty) or land in a nested repository (`.git` in any case). Git's fsck flags these and
 * its checkout refuses them; a crafted tree must never make restore or merge write outside
 * agentRoot.
 */
function assertEntryName(name: string, oid: string): void {
  if (
    name === '' ||
    name === '.' ||
    name === '..' ||
    name.includes('/') ||
    name.toLowerCase() === '.git'
  ) {
    throw new CheckpointError(
      'CHECKPOINT_REPO_CORRUPT',
      `tree ${oid} has an unsafe entry ${JSON.stringify(name)}`,
      { details: { oid, name } },
    );
  }
}

/** The identity every checkpoint is written with (also in the isolated `.gitconfig`). */
export const RUNTIME_NAME = 'Hankweave Runtime';
export const RUNTIME_EMAIL = 'runtime@hankweave.dev';

/** Fields of a commit object that the engine uses. */
export interface ParsedCommit {
  tree: string;
  parents: string[];
  /** Committer time, seconds since the epoch. */
  time: number;
  message: string;
}

/** Serialises a commit by this runtime, with UTC times (`+0000`). */
export function serializeCommit(
  tree: string,
  parents: readonly string[],
  when: Date,
  message: string,
): Buffer {
  const seconds = Math.floor(when.getTime() / 1000);
  const ident = `${RUNTIME_NAME} <${RUNTIME_EMAIL}> ${seconds} +0000`;
  const lines = [`tree ${tree}`, ...parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${ident}`, `committer ${ident}`, '', message);
  return Buffer.from(lines.join('\n'));
}

/** Parses a commit object's headers and message. */
export function parseCommit(content: Uint8Array, oid: string): ParsedCommit {
  const text = Buffer.from(content.buffer, content.byteOffset, content.length).toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const commit: ParsedCommit = {
    tree: '',
    parents: [],
    time: 0,
    message: split < 0 ? '' : text.slice(split + 2),
  };
  for (const line of head.split('\n')) {
    if (line.startsWith('tree ')) commit.tree = line.slice(5);
    else if (line.startsWith('parent ')) commit.parents.push(line.slice(7));
    else if (line.startsWith('committer ')) {
      const match = / (\d+) [+-]\d{4}$/.exec(line);
      commit.time = match ? Number(match[1]) : 0;
    }
  }
  if (!/^[0-9a-f]{40}$/.test(commit.tree)) {
    throw new CheckpointError('CHECKPOINT_REPO_CORRUPT', `commit ${oid} has no tree`, {
      details: { oid },
    });
  }
  return commit;
}
