import { normalizeRelative } from '@hankweave/durable-io';
import {
  type HankConfig,
  isLoopConfig,
  isParallelConfig,
  type ProgressFileSetting,
  type SentinelConfig,
} from '@hankweave/types';
import { formatJsonPath, type HankIssue, type HankIssueCode } from './hank-issue.js';
import { checkRefSyntax } from './hank-refs.js';
import { clip } from './input-limits.js';
import { codonsInOrder } from './plan-order.js';

// Every path a hank names, checked lexically against the root it resolves in (reference
// §0.5, §1.4–1.8): file refs against the hank directory, rig copy targets, output and archive
// globs and tracked patterns against agentRoot, sentinel output files against the execution
// directory. The runtime checks again when it acts; this finds the mistake before anything runs.
// The lexical walk is durable-io's `normalizeRelative` (a property test checks it agrees with
// `relativeInside`, which resolves against a real root).

/** A problem with one path, or undefined when it is fine. */
export interface PathProblem {
  code: HankIssueCode;
  message: string;
}

/** The data source's link inside agentRoot (runtime `DATA_LINK_NAME`): the user's data. */
const DATA_LINK_NAME = 'read_only_data_source';
/** The runtime's own state directory inside the execution directory. */
const HANKWEAVE_DIR = '.hankweave';

const isAbsoluteLike = (path: string) => path.startsWith('/') || /^[a-zA-Z]:/.test(path);
const firstSegmentIs = (path: string, name: string) =>
  path.split('/')[0]?.toLowerCase() === name.toLowerCase();
/**
 * True when a glob names the data link in any segment, alone or as a `{a,b}` alternative. The
 * file resolver never lists the data link (at any depth), so such a glob can only be a mistake,
 * and for archives a dangerous one.
 */
const globNamesDataLink = (glob: string) =>
  (normalizeRelative(glob) ?? glob)
    .split('/')
    .flatMap((segment) =>
      segment.startsWith('{') && segment.endsWith('}')
        ? segment.slice(1, -1).split(',')
        : [segment],
    )
    .some((name) => name.toLowerCase() === DATA_LINK_NAME);

/** A file reference checked without the disk: its syntax, and no climbing above the hank dir. */
export function checkRefLexically(ref: string, options: { tree?: boolean } = {}) {
  const syntax = checkRefSyntax(ref);
  if (syntax) return syntax;
  const inside = normalizeRelative(ref);
  if (inside === undefined) {
    return { code: 'escapes_hank', message: 'climbs above the hank directory' } as const;
  }
  if (options.tree && inside === '') {
    return {
      code: 'invalid_path',
      message: 'is the hank directory itself; copy a subdirectory',
    } as const;
  }
  return undefined;
}

/** Shape problems shared by every agentRoot path: NUL, backslash, absolute. */
function agentRootSyntax(path: string, backslash: boolean): PathProblem | undefined {
  if (path.includes('\0')) return { code: 'invalid_path', message: 'contains a NUL byte' };
  if (backslash && path.includes('\\')) {
    return { code: 'invalid_path', message: 'uses a backslash; write paths with forward slashes' };
  }
  if (isAbsoluteLike(path)) {
    return { code: 'invalid_path', message: 'is absolute; write it relative to agentRoot' };
  }
  return undefined;
}

/**
 * A rig copy target (`rigSetup[].copy.to`): strictly inside agentRoot, and not in the data
 * source's link, whose files are the user's (the copy removes the target first).
 */
export function checkCopyTarget(to: string): PathProblem | undefined {
  const syntax = agentRootSyntax(to, true);
  if (syntax) return syntax;
  const inside = normalizeRelative(to);
  if (inside === undefined) {
    return {
      code: 'escapes_agent_root',
      message: 'climbs out of agentRoot; write the target relative to agentRoot, without ".."',
    };
  }
  if (inside === '') {
    return {
      code: 'invalid_path',
      message: 'names agentRoot itself; name the file or directory to create inside it',
    };
  }
  if (firstSegmentIs(inside, DATA_LINK_NAME)) {
    return {
      code: 'invalid_path',
      message: `writes into ${DATA_LINK_NAME}, the user's data; copy to another place in agentRoot`,
    };
  }
  return undefined;
}

/**
 * A glob under agentRoot (`checkpointedFiles`, `trackedFiles`; `outputFiles[].copy` through
 * {@link checkOutputGlob}): a leading `!` negates; the rest must stay inside agentRoot.
 * Backslashes escape glob characters, so they are allowed.
 */
export function checkAgentGlob(pattern: string): PathProblem | undefined {
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  if (body === '') return { code: 'invalid_path', message: 'is a "!" with no pattern after it' };
  const syntax = agentRootSyntax(body, false);
  if (syntax) return syntax;
  if (normalizeRelative(body) === undefined) {
    return {
      code: 'escapes_agent_root',
      message:
        'climbs out of agentRoot; patterns match files inside agentRoot, write it without ".."',
    };
  }
  return undefined;
}

/**
 * An `outputFiles[].copy` glob: an agentRoot glob that does not take files from the data link
 * (the user's own data; outputs are what the codons made).
 */
export function checkOutputGlob(pattern: string): PathProblem | undefined {
  const problem = checkAgentGlob(pattern);
  if (problem) return problem;
  if (!pattern.startsWith('!') && globNamesDataLink(pattern)) {
    return {
      code: 'invalid_path',
      message: `takes files from ${DATA_LINK_NAME}, the user's own data, which outputs never copy; name the files the codons write elsewhere in agentRoot`,
    };
  }
  return undefined;
}

/**
 * An `archiveOnSuccess` glob: relative to agentRoot with no `..` at all (reference §1.3), and not
 * in the data link, since archiving moves the files away.
 */
export function checkArchiveGlob(glob: string): PathProblem | undefined {
  if (glob.includes('\0')) return { code: 'invalid_path', message: 'contains a NUL byte' };
  if (isAbsoluteLike(glob) || glob.split('/').includes('..')) {
    return { code: 'invalid_path', message: 'must be relative to agentRoot without ".."' };
  }
  if (globNamesDataLink(glob)) {
    return {
      code: 'invalid_path',
      message: `takes files from ${DATA_LINK_NAME}: archiving moves files, which would delete the user's data; archive the files the codons write elsewhere in agentRoot`,
    };
  }
  return undefined;
}

/**
 * A sentinel output file (`output.file`, `output.lastValueFile`, `settings.outputPaths.*`): a
 * bare name goes to the sentinel's output directory; a path with `/` resolves against agentRoot
 * and must stay inside the execution directory (reference §1.8), out of `.hankweave/` (the
 * runtime's own state) and out of the data link.
 */
export function checkSentinelOutputPath(path: string): PathProblem | undefined {
  if (path === '') return undefined; // Empty means "not set": the automatic name is used.
  const syntax = agentRootSyntax(path, true);
  if (syntax) return syntax;
  if (!path.includes('/')) {
    return path === '.' || path === '..'
      ? { code: 'invalid_path', message: 'is not a file name' }
      : undefined;
  }
  const inExecution = normalizeRelative(`agentRoot/${path}`);
  if (inExecution === undefined) {
    return {
      code: 'escapes_agent_root',
      message:
        'climbs out of the execution directory; a path with "/" resolves against agentRoot and must stay inside it',
    };
  }
  const lower = inExecution.toLowerCase();
  if (lower === '' || lower === 'agentroot') {
    return { code: 'invalid_path', message: 'names a directory; name a file' };
  }
  if (firstSegmentIs(inExecution, HANKWEAVE_DIR)) {
    return {
      code: 'invalid_path',
      message: `writes into ${HANKWEAVE_DIR}/, the runtime's own files; use a bare file name (kept in ${HANKWEAVE_DIR}/sentinels/outputs/) or a path inside agentRoot`,
    };
  }
  const link = `agentroot/${DATA_LINK_NAME}`;
  if (lower === link || lower.startsWith(`${link}/`)) {
    return {
      code: 'invalid_path',
      message: `writes into ${DATA_LINK_NAME}, the user's data; write elsewhere in agentRoot`,
    };
  }
  return undefined;
}

/** The output paths a sentinel config names, checked (errors reported through `report`). */
export function checkSentinelConfigPaths(
  config: Pick<SentinelConfig, 'output'>,
  path: PropertyKey[],
  report: (path: PropertyKey[], value: string, problem: PathProblem) => void,
): void {
  for (const field of ['file', 'lastValueFile'] as const) {
    const value = config.output?.[field];
    if (value === undefined) continue;
    const problem = checkSentinelOutputPath(value);
    if (problem) report([...path, 'output', field], value, problem);
  }
}

/**
 * Checks every agentRoot and execution-directory path of a structurally valid hank, and, when no
 * hank directory is given to check them on disk, the file references lexically.
 */
export function checkHankPaths(
  config: HankConfig,
  options: { onDisk: boolean },
): { errors: HankIssue[]; warnings: HankIssue[] } {
  const errors: HankIssue[] = [];
  const warnings: HankIssue[] = [];
  const issue = (path: PropertyKey[], value: string, problem: PathProblem): HankIssue => ({
    path: formatJsonPath(path),
    code: problem.code,
    message: `${JSON.stringify(clip(value))} ${problem.message}`,
  });
  const report = (path: PropertyKey[], value: string, problem: PathProblem) =>
    errors.push(issue(path, value, problem));
  const refs = (value: string | string[] | undefined, path: PropertyKey[], sink = errors) => {
    if (options.onDisk || value === undefined) return;
    for (const [index, ref] of (Array.isArray(value) ? value : [value]).entries()) {
      const problem = checkRefLexically(ref);
      if (problem) sink.push(issue(Array.isArray(value) ? [...path, index] : path, ref, problem));
    }
  };
  const archive = (globs: string[] | undefined, path: PropertyKey[]) => {
    for (const [index, glob] of (globs ?? []).entries()) {
      const problem = checkArchiveGlob(glob);
      if (problem) report([...path, 'archiveOnSuccess', index], glob, problem);
    }
  };

  refs(config.globalSystemPromptFile, ['globalSystemPromptFile']);
  const progress = (setting: ProgressFileSetting | undefined, path: PropertyKey[]) => {
    const file =
      typeof setting === 'string'
        ? setting
        : typeof setting === 'object'
          ? setting.path
          : undefined;
    const problem = file === undefined ? undefined : checkCopyTarget(file);
    if (file !== undefined && problem) {
      report(
        [...path, 'progressFile', ...(typeof setting === 'object' ? ['path'] : [])],
        file,
        problem,
      );
    }
  };
  for (const [index, item] of config.hank.entries()) {
    if (isLoopConfig(item)) {
      archive(item.archiveOnSuccess, ['hank', index]);
      progress(item.progressFile, ['hank', index]);
    }
    if (!isParallelConfig(item)) continue;
    for (const [branchIndex, branch] of item.branches.entries()) {
      for (const [at, inner] of branch.items.entries()) {
        if (!isLoopConfig(inner)) continue;
        archive(inner.archiveOnSuccess, ['hank', index, 'branches', branchIndex, 'items', at]);
        progress(inner.progressFile, ['hank', index, 'branches', branchIndex, 'items', at]);
      }
    }
  }
  for (const { codon, path } of codonsInOrder(config)) {
    refs(codon.promptFile, [...path, 'promptFile']);
    refs(codon.appendSystemPromptFile, [...path, 'appendSystemPromptFile']);
    for (const [index, op] of (codon.rigSetup ?? []).entries()) {
      if (op.type !== 'copy') continue;
      const at = [...path, 'rigSetup', index, 'copy'];
      const from = options.onDisk ? undefined : checkRefLexically(op.copy.from, { tree: true });
      if (from) report([...at, 'from'], op.copy.from, from);
      const to = checkCopyTarget(op.copy.to);
      if (to) report([...at, 'to'], op.copy.to, to);
    }
    for (const field of ['checkpointedFiles', 'trackedFiles'] as const) {
      for (const [index, pattern] of (codon[field] ?? []).entries()) {
        const problem = checkAgentGlob(pattern);
        if (problem) report([...path, field, index], pattern, problem);
      }
    }
    for (const [index, output] of (codon.outputFiles ?? []).entries()) {
      for (const [globIndex, glob] of output.copy.entries()) {
        const problem = checkOutputGlob(glob);
        if (problem) report([...path, 'outputFiles', index, 'copy', globIndex], glob, problem);
      }
    }
    archive(codon.archiveOnSuccess, path);
    progress(codon.progressFile, path);
    for (const [index, entry] of (codon.sentinels ?? []).entries()) {
      const at = [...path, 'sentinels', index];
      for (const field of ['logFile', 'lastValueFile'] as const) {
        const value = entry.settings?.outputPaths?.[field];
        const problem = value === undefined ? undefined : checkSentinelOutputPath(value);
        if (problem) report([...at, 'settings', 'outputPaths', field], value as string, problem);
      }
      const sentinel = entry.sentinelConfig;
      if (typeof sentinel === 'string') {
        // A sentinel file that cannot load fails the codon only when the codon asks for that,
        // as on disk (checkSentinelFiles).
        refs(
          sentinel,
          [...at, 'sentinelConfig'],
          entry.settings?.failCodonIfNotLoaded ? errors : warnings,
        );
        continue;
      }
      checkSentinelConfigPaths(sentinel, [...at, 'sentinelConfig'], report);
      refs(sentinel.systemPromptFile, [...at, 'sentinelConfig', 'systemPromptFile']);
      refs(sentinel.userPromptFile, [...at, 'sentinelConfig', 'userPromptFile']);
      refs(sentinel.structuredOutput?.schemaFile, [
        ...at,
        'sentinelConfig',
        'structuredOutput',
        'schemaFile',
      ]);
    }
  }
  return { errors, warnings };
}
