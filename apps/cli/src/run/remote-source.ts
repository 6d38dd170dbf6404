import {
  isRemoteHankUrl,
  parseRemoteHankUrl,
  RemoteError,
  resolveRemoteHank,
} from '@hankweave/remote';
import { defaultExecutionBaseDir, findNewestExecution } from '@hankweave/runtime/layout';
import type { ExecutionMeta, HankSource } from '@hankweave/types';
import { resolveHankPath } from '../commands/load-hank.js';
import { CliError } from '../output/cli-error.js';
import { commandHint } from '../output/command-hint.js';

/** A hank argument resolved: hank.json on this machine, where it came from, what to tell. */
export interface HankArgument {
  hankPath: string;
  /** Set for a remote hank (`{kind: 'git', url, ref?, commit, subdir?}`, no credentials). */
  hankSource?: HankSource;
  /** One-line warnings for stderr (the cache used offline, a resume pinned to its commit). */
  notes: string[];
}

type GitSource = Extract<HankSource, { kind: 'git' }>;

export { isRemoteHankUrl };

/**
 * `validate`, `doctor` and a run's hank argument: a path (a hank.json or its directory) as
 * `resolveHankPath` reads it, or a git URL (`<url>[#ref][:subdir]`, see @hankweave/remote)
 * resolved through the cache. `pinned`: the git source an execution being resumed recorded;
 * when it names the same repository, ref and subdir, its commit runs, not the ref's newest
 * (another ref is another hank: it runs, and the runtime warns that hank.json changed).
 *
 * @throws {CliError} for every RemoteError (CLI_USAGE for a bad or ssh URL, CLI_NOT_FOUND for a
 *   missing ref, subdir or repository, CLI_FAILED otherwise), and as `resolveHankPath` does.
 */
export async function resolveHankArgument(
  arg: string,
  options: { pinned?: HankSource | undefined; env?: NodeJS.ProcessEnv } = {},
): Promise<HankArgument> {
  if (!isRemoteHankUrl(arg)) return { hankPath: resolveHankPath(arg), notes: [] };
  const env = options.env ?? process.env;
  try {
    const spec = parseRemoteHankUrl(arg);
    const pinned =
      options.pinned?.kind === 'git' &&
      options.pinned.url === spec.url &&
      options.pinned.ref === spec.ref &&
      (options.pinned.subdir ?? '') === (spec.subdir ?? '')
        ? options.pinned
        : undefined;
    const notes: string[] = [];
    if (pinned) {
      // What the ref says now, only to tell the user; a failure here never stops the resume.
      const now = await resolveRemoteHank(spec, { env }).catch(() => undefined);
      const resolved = await resolveRemoteHank(spec, { env, commit: pinned.commit });
      if (now && now.commit !== pinned.commit) {
        notes.push(
          `Resuming at the recorded commit ${short(pinned.commit)} of ${spec.url}${refText(spec.ref)}; it is now at ${short(now.commit)} (pass --start-new to run that)`,
        );
      }
      return finish(resolved.hankPath, resolved.source, notes);
    }
    const resolved = await resolveRemoteHank(spec, { env });
    if (resolved.offline) {
      notes.push(
        `${spec.url} is unreachable; using the cached commit ${short(resolved.commit)}${refText(spec.ref)}, resolved ${age(resolved.offline.resolvedAt)} ago`,
      );
    }
    return finish(resolved.hankPath, resolved.source, notes);
  } catch (error) {
    throw cliErrorOf(error);
  }
}

/**
 * The hank an execution recorded, for a resume without a hank argument: its git source's
 * commit checked out again (fetched if the cache lost it), else its recorded `hankPath`.
 */
export async function recordedHank(
  meta: ExecutionMeta,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HankArgument> {
  const source = meta.hankSource;
  if (source?.kind !== 'git') return { hankPath: meta.hankPath, notes: [] };
  try {
    const resolved = await resolveRemoteHank(sourceText(source), { env, commit: source.commit });
    return finish(resolved.hankPath, source, []);
  } catch (error) {
    throw cliErrorOf(error);
  }
}

/** The source a run records: resumes keep what the execution recorded (its URL and ref). */
function finish(path: string, source: GitSource, notes: string[]): HankArgument {
  return { hankPath: resolveHankPath(path), hankSource: source, notes };
}

/** A recorded git source written back as `<url>[#ref][:subdir]`. */
export function sourceText(source: GitSource): string {
  const ref = source.ref !== undefined ? `#${source.ref}` : '';
  const subdir = source.subdir !== undefined ? `${ref === '' ? '#:' : ':'}${source.subdir}` : '';
  return `${source.url}${ref}${subdir}`;
}
const refText = (ref: string | undefined) => (ref !== undefined ? ` (${ref})` : '');
const short = (commit: string) => commit.slice(0, 12);

function age(iso: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

function cliErrorOf(error: unknown): unknown {
  if (!RemoteError.is(error)) return error;
  const details = error.details as { url?: string; https?: string };
  switch (error.code) {
    case 'REMOTE_INVALID_URL':
      return new CliError(
        'CLI_USAGE',
        error.message,
        'Write a remote hank as <url>[#branch|tag|commit][:subdir], e.g. https://github.com/owner/repo.git#main:hanks/review',
      );
    case 'REMOTE_SSH_UNSUPPORTED':
      return new CliError(
        'CLI_USAGE',
        error.message,
        details.https
          ? `Run it as \`${commandHint(details.https)}\` instead.`
          : 'Use the https:// URL of the repository.',
      );
    case 'REMOTE_UNREACHABLE':
      return new CliError(
        'CLI_FAILED',
        `${error.message}, and no copy of it is cached`,
        'Check the network and the URL, then run it again; once a hank has run, its cached copy is used when the remote is down.',
      );
    case 'REMOTE_REF_NOT_FOUND':
    case 'REMOTE_SUBDIR_NOT_FOUND':
    case 'REMOTE_NOT_FOUND':
      return new CliError(
        'CLI_NOT_FOUND',
        error.message,
        'Check the branch, tag or commit after # and the directory after : (the subdir must hold hank.json).',
      );
    case 'REMOTE_AUTH_FAILED':
      return new CliError(
        'CLI_FAILED',
        error.message,
        'Put a token in the URL (https://user:token@host/owner/repo.git); it is used to fetch and never recorded.',
      );
    case 'REMOTE_INVALID_SETTING':
      return new CliError(
        'CLI_USAGE',
        error.message,
        'Set it to a whole number of seconds, or unset it for the default.',
      );
    case 'REMOTE_UNSAFE_TREE':
      return new CliError(
        'CLI_FAILED',
        error.message,
        'That commit is not run: ask its authors to remove the link, or pick another ref.',
      );
    default:
      return new CliError(
        'CLI_FAILED',
        error.message,
        'Run it again once the other hankweave process has finished.',
      );
  }
}

/**
 * A run of a git URL on `dataPath`. The execution it will resume (`--execution`'s, or the
 * managed one with the data's hash, unless `--start-new`) decides the commit: when that
 * execution recorded the same repository and subdir, its commit runs, so a resume never
 * changes the hank under a half-finished run.
 */
export async function remoteRunInputs(
  url: string,
  dataPath: string,
  options: { meta: ExecutionMeta | undefined; explicit: boolean; startNew: boolean },
): Promise<{
  hankPath: string;
  dataPath: string;
  hankSource?: HankSource;
  sourceNotes?: string[];
}> {
  let pinned = options.meta?.hankSource;
  if (!options.explicit && !options.startNew) {
    const match = await findNewestExecution(defaultExecutionBaseDir(process.env), dataPath).catch(
      () => undefined,
    );
    if (match?.matchedBy === 'hash') pinned = match.meta.hankSource;
  }
  if (options.startNew) pinned = undefined;
  const hank = await resolveHankArgument(url, { pinned });
  return {
    hankPath: hank.hankPath,
    dataPath,
    ...(hank.hankSource ? { hankSource: hank.hankSource } : {}),
    ...(hank.notes.length > 0 ? { sourceNotes: hank.notes } : {}),
  };
}
