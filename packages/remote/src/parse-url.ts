import { posix } from 'node:path';
import { RemoteError } from './errors.js';

/** A remote hank as written on a command line: the repository, a ref, a directory inside. */
export interface RemoteHankSpec {
  /** The repository URL as given, credentials included (use it to fetch, never to print). */
  readonly cloneUrl: string;
  /** The repository URL without `user:password@`: what may be printed and recorded. */
  readonly url: string;
  /** `https` and `http` are fetched; `ssh` (`git@host:path`, `ssh://`) is refused when fetched. */
  readonly transport: 'https' | 'http' | 'ssh';
  /** The branch, tag or (full or abbreviated) commit; absent: the remote's default branch. */
  readonly ref?: string;
  /** The hank's directory (or hank.json) inside the repository, POSIX, normalized; absent: root. */
  readonly subdir?: string;
}

const SCHEMES = ['https://', 'http://', 'ssh://'] as const;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:/;

/**
 * True when `text` names a git repository (`https://`, `http://`, `ssh://`, or the scp-like
 * `user@host:path` form such as `git@github.com:owner/repo.git`); such a positional is a hank.
 */
export function isRemoteHankUrl(text: string): boolean {
  return SCHEMES.some((scheme) => text.startsWith(scheme)) || SCP_LIKE.test(text);
}

/**
 * Parses `<repository>[#<ref>][:<subdir>]`.
 *
 * - `<repository>` is `https://[user[:password]@]host[:port]/path`, `http://…`, `ssh://…` or
 *   `user@host:path`.
 * - `#<ref>` names a branch (slashes allowed: `#feature/x`), a tag, or a commit (4 to 40 hex
 *   digits). Git forbids `:` in ref names, so the first `:` after `#` starts the subdir.
 * - `:<subdir>` without `#` is the first `:` in the repository's path (after `host[:port]/` for
 *   a URL, after `host:` for the scp-like form); `#:<subdir>` also works. A repository path
 *   that itself contains `:` cannot be written.
 * - The subdir is a relative POSIX path inside the repository: no `..`, no leading `/`, no `\`.
 *
 * @throws {RemoteError} REMOTE_INVALID_URL
 */
export function parseRemoteHankUrl(text: string): RemoteHankSpec {
  if (!isRemoteHankUrl(text)) invalid(text, 'it is not an https://, http://, ssh:// or git@ URL');
  if ([...text].some((char) => char.trim() === '' || char.charCodeAt(0) < 0x20 || char === '\x7f'))
    invalid(text, 'it contains whitespace or control characters');
  const hash = text.indexOf('#');
  let repository = hash === -1 ? text : text.slice(0, hash);
  let ref: string | undefined;
  let subdir: string | undefined;
  if (hash !== -1) {
    const fragment = text.slice(hash + 1);
    const colon = fragment.indexOf(':');
    ref = colon === -1 ? fragment : fragment.slice(0, colon);
    if (colon !== -1) subdir = fragment.slice(colon + 1);
  }
  const pathStart = pathStartOf(repository);
  if (pathStart === -1) invalid(text, 'it names no repository path');
  const colon = repository.indexOf(':', pathStart);
  if (colon !== -1) {
    if (subdir !== undefined) invalid(text, 'it gives the subdir twice');
    subdir = repository.slice(colon + 1);
    repository = repository.slice(0, colon);
  }
  const transport = repository.startsWith('https://')
    ? 'https'
    : repository.startsWith('http://')
      ? 'http'
      : 'ssh';
  if (transport !== 'ssh') {
    try {
      new URL(repository);
    } catch {
      invalid(text, 'it is not a valid URL');
    }
  }
  if (repository.slice(pathStart).replace(/\/+$/, '') === '') {
    invalid(text, 'it names no repository path');
  }
  if (ref !== undefined) {
    if (ref === '') ref = undefined;
    else if (!isSafeRef(ref)) invalid(text, `"${ref}" is not a valid git ref name`);
  }
  const normalized = subdir === undefined ? undefined : normalizeSubdir(text, subdir);
  return {
    cloneUrl: repository,
    url: stripCredentials(repository),
    transport,
    ...(ref !== undefined ? { ref } : {}),
    ...(normalized !== undefined ? { subdir: normalized } : {}),
  };
}

/** Where the repository path starts: after `scheme://authority/`, or after `host:` (scp-like). */
function pathStartOf(repository: string): number {
  const scheme = SCHEMES.find((prefix) => repository.startsWith(prefix));
  if (scheme === undefined) return repository.indexOf(':') + 1;
  const slash = repository.indexOf('/', scheme.length);
  return slash === -1 ? -1 : slash + 1;
}

/**
 * `url` without the `user:password@` (or `token@`) of an `https://`/`http://`/`ssh://` URL.
 * The scp-like `git@host:path` keeps its user, which is never a secret. Use it for everything
 * printed or written.
 */
export function stripCredentials(url: string): string {
  const scheme = SCHEMES.find((prefix) => url.startsWith(prefix));
  if (scheme === undefined) return url;
  const rest = url.slice(scheme.length);
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  if (at === -1) return url;
  // ssh://git@host keeps a bare user name; any password goes.
  const user = authority.slice(0, at);
  const keep = scheme === 'ssh://' && !user.includes(':') ? `${user}@` : '';
  return `${scheme}${keep}${authority.slice(at + 1)}${end === -1 ? '' : rest.slice(end)}`;
}

/**
 * The https URL of an ssh one (`git@github.com:owner/repo.git` → `https://github.com/owner/repo.git`),
 * for the error that says what to do instead. Undefined for what it cannot map.
 */
export function httpsEquivalent(url: string): string | undefined {
  const scp = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(?!\/\/)(.+)$/.exec(url);
  if (scp) return `https://${scp[1]}/${(scp[2] as string).replace(/^\/+/, '')}`;
  const ssh = /^ssh:\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/.exec(url);
  if (ssh) return `https://${ssh[1]}/${ssh[2]}`;
  return undefined;
}

/** A ref name git would accept (`git check-ref-format`'s rules that matter here). */
function isSafeRef(ref: string): boolean {
  return (
    !ref.startsWith('-') &&
    !ref.startsWith('/') &&
    !ref.endsWith('/') &&
    !ref.endsWith('.') &&
    !ref.endsWith('.lock') &&
    !ref.includes('..') &&
    !ref.includes('//') &&
    !ref.includes('@{') &&
    !/[~^:?*[\\]/.test(ref) &&
    ref.split('/').every((part) => part !== '' && !part.startsWith('.'))
  );
}

function normalizeSubdir(text: string, subdir: string): string | undefined {
  if (subdir.includes('\\') || subdir.startsWith('/')) {
    invalid(text, `the subdir "${subdir}" must be a relative POSIX path`);
  }
  if (subdir.split('/').includes('..')) invalid(text, `the subdir "${subdir}" climbs out with ..`);
  const normalized = posix.normalize(subdir).replace(/\/+$/, '');
  return normalized === '' || normalized === '.' ? undefined : normalized;
}

function invalid(text: string, why: string): never {
  const shown = (() => {
    try {
      return stripCredentials(text);
    } catch {
      return '(unprintable)';
    }
  })();
  throw new RemoteError('REMOTE_INVALID_URL', `${shown} is not a remote hank: ${why}`, {
    details: { url: shown },
  });
}
