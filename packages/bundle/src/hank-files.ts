import { isAbsolute, join, posix } from 'node:path';
import { readRegularFileSync } from '@hankweave/durable-io';
import {
  type CopyRuleSource,
  type CopyTreeListing,
  DEFAULT_COPY_IGNORES,
  listCopyTree,
} from '@hankweave/files';
import { canonicalJson, compareUtf8 } from './canonical-json.js';
import { BundleError } from './errors.js';
import { LOCK_FILE, type LockFileEntry, sha256Hex } from './lock.js';

/** One problem `pack --check` reports. */
export interface PackFinding {
  severity: 'error' | 'warning';
  /** What is wrong; `invalid_hank`: hank.json fails the validation a run does first (the CLI's `pack`). */
  code:
    | 'invalid_hank'
    | 'absolute_path'
    | 'outside_hank'
    | 'missing_reference'
    | 'ignored_reference'
    | 'symlink'
    | 'special_file'
    | 'unreadable'
    | 'too_large'
    | 'case_collision'
    | 'non_portable_name';
  /** The file (relative to the hank directory) or the hank.json field at fault. */
  path: string;
  message: string;
}

/** One file of the hank that goes into its bundle. */
export interface HankFile {
  path: string;
  mode: LockFileEntry['mode'];
  sha256: string;
  bytes: Buffer;
}

/** Everything `pack` and a pinned run learn from a hank directory. */
export interface HankFiles {
  hankDir: string;
  /** hank.json, parsed. */
  raw: Record<string, unknown>;
  /** Sorted by path (UTF-8 bytes); hank.lock is never one. */
  files: HankFile[];
  findings: PackFinding[];
  rules: CopyRuleSource;
  /** How many entries the ignore rules skipped (a skipped directory counts once). */
  skipped: number;
}

/** The default of `maxFileBytes`: a file larger than this is not a prompt or a template. */
export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;

/** The fingerprint of {@link DEFAULT_COPY_IGNORES} recorded in a lock (`ignoreDefaults`). */
export const IGNORE_DEFAULTS_FINGERPRINT = sha256Hex(DEFAULT_COPY_IGNORES.join('\n'));

/** A file a bundle never holds: another bundle. */
const BUNDLE_NAME = /\.(hank|tar\.zst)$/;

/** A path of hank.json that names a file or a tree of the hank directory. */
interface Reference {
  /** Where hank.json names it (`hank[1].rigSetup[0].copy.from`). */
  field: string;
  ref: string;
  /** The directory it resolves from, relative to the hank directory ('' for the root). */
  baseDir: string;
}

/**
 * The files of a hank directory that make its bundle: every file the copy rules keep
 * (`listCopyTree` of the whole directory: the hank's .gitignore or the defaults), plus the
 * files hank.json names that a rule ignores (named means wanted, as for a rig copy). Reads every
 * file once; the hashes and bytes are what the archive holds. Also lints portability.
 *
 * @throws {BundleError} BUNDLE_IO when hank.json cannot be read or is not JSON.
 */
export function collectHankFiles(
  hankDir: string,
  options: { maxFileBytes?: number; exclude?: readonly string[] } = {},
): HankFiles {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readRegularFileSync(join(hankDir, 'hank.json')).toString('utf8'));
  } catch (error) {
    throw new BundleError(
      'BUNDLE_IO',
      `cannot read ${join(hankDir, 'hank.json')}: ${(error as Error).message}`,
      {
        details: { file: 'hank.json' },
        cause: error,
      },
    );
  }
  const findings: PackFinding[] = [];
  const exclude = [LOCK_FILE, ...(options.exclude ?? [])];
  const listed = listCopyTree(hankDir, '.', { exclude });
  // A bundle lying in the hank directory (an earlier pack) is never packed into the next one.
  const bundles = listed.files.filter((file) => BUNDLE_NAME.test(file.path));
  const root = { ...listed, files: listed.files.filter((file) => !BUNDLE_NAME.test(file.path)) };
  for (const bundle of bundles)
    findings.push({
      severity: 'warning',
      code: 'non_portable_name',
      path: bundle.path,
      message: 'is a bundle inside the hank directory; left out (bundles never nest)',
    });
  const listings: CopyTreeListing[] = [root];
  const kept = new Set(root.files.map((file) => file.path));
  for (const reference of referencesOf(hankDir, raw)) {
    const problem = checkReference(hankDir, reference, kept, findings);
    if (problem) listings.push(problem);
  }
  const byPath = new Map<string, { mode: number; size: number }>();
  for (const listing of listings) {
    for (const file of listing.files) byPath.set(file.path, file);
    for (const link of listing.links)
      findings.push({
        severity: 'error',
        code: 'symlink',
        path: link,
        message:
          'is a symbolic link; a bundle holds real files only (list it in .gitignore to leave it out)',
      });
    for (const special of listing.special)
      findings.push({
        severity: 'error',
        code: 'special_file',
        path: special,
        message: 'is not a regular file (a FIFO, socket or device)',
      });
    for (const dir of listing.unreadable)
      findings.push({
        severity: 'error',
        code: 'unreadable',
        path: dir,
        message: 'cannot be read',
      });
  }
  const files: HankFile[] = [];
  const folded = new Map<string, string>();
  for (const path of [...byPath.keys()].sort(compareUtf8)) {
    const { size } = byPath.get(path) as { mode: number; size: number };
    const key = path.normalize('NFC').toLowerCase();
    const other = folded.get(key);
    if (other !== undefined)
      findings.push({
        severity: 'error',
        code: 'case_collision',
        path,
        message: `and ${other} are one file on case-insensitive file systems (macOS, Windows)`,
      });
    else folded.set(key, path);
    const portability = nonPortableName(path);
    if (portability)
      findings.push({ severity: 'warning', code: 'non_portable_name', path, message: portability });
    if (size > maxFileBytes) {
      findings.push({
        severity: 'error',
        code: 'too_large',
        path,
        message: `is ${size} bytes; a bundle file may hold at most ${maxFileBytes}`,
      });
      continue;
    }
    let bytes: Buffer;
    let mode: number;
    try {
      bytes = readRegularFileSync(join(hankDir, path), { maxBytes: maxFileBytes });
      mode = (byPath.get(path) as { mode: number }).mode;
    } catch (error) {
      findings.push({
        severity: 'error',
        code: 'unreadable',
        path,
        message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      });
      continue;
    }
    files.push({
      path,
      mode: (mode & 0o111) !== 0 ? '755' : '644',
      sha256: sha256Hex(bytes),
      bytes,
    });
  }
  return {
    hankDir,
    raw,
    files,
    findings: sortFindings(findings),
    rules: root.source,
    skipped: root.ignored.length,
  };
}

/** Checks one reference; returns its listing when it names ignored files the bundle must add. */
function checkReference(
  hankDir: string,
  reference: Reference,
  kept: ReadonlySet<string>,
  findings: PackFinding[],
): CopyTreeListing | undefined {
  const { ref, field, baseDir } = reference;
  if (isAbsolute(ref) || /^[a-zA-Z]:/.test(ref)) {
    findings.push({
      severity: 'error',
      code: 'absolute_path',
      path: field,
      message: `"${ref}" is absolute; write it relative to the hank directory`,
    });
    return undefined;
  }
  const path = posix.normalize(posix.join(baseDir, ref.replaceAll('\\', '/')));
  if (path === '..' || path.startsWith('../')) {
    findings.push({
      severity: 'error',
      code: 'outside_hank',
      path: field,
      message: `"${ref}" is outside the hank directory; a bundle holds only the hank directory`,
    });
    return undefined;
  }
  let listing: CopyTreeListing;
  try {
    listing = listCopyTree(hankDir, path === '.' ? '' : path);
  } catch {
    findings.push({
      severity: 'error',
      code: 'missing_reference',
      path: field,
      message: `"${ref}" does not exist in the hank directory`,
    });
    return undefined;
  }
  const added = listing.files.filter((file) => !kept.has(file.path));
  if (added.length === 0 && listing.links.length === 0 && listing.special.length === 0)
    return undefined;
  if (added.length > 0)
    findings.push({
      severity: 'warning',
      code: 'ignored_reference',
      path: field,
      message: `"${ref}" is ignored by the hank's ${listing.source === 'gitignore' ? '.gitignore' : 'default ignore rules'}, but hank.json names it: ${added.length} file(s) packed anyway`,
    });
  return listing;
}

const RESERVED_WINDOWS = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\.|$)/i;

function nonPortableName(path: string): string | undefined {
  if (path.includes('\\')) return 'has a backslash, a separator on Windows';
  if (/[:*?"<>|]/.test(path)) return 'has a character Windows refuses (: * ? " < > |)';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'has a control character';
  for (const part of path.split('/')) {
    if (RESERVED_WINDOWS.test(part)) return `"${part}" is a device name on Windows`;
    if (part.endsWith('.') || part.endsWith(' ')) return `"${part}" ends with a dot or a space`;
  }
  return undefined;
}

function sortFindings(findings: PackFinding[]): PackFinding[] {
  const rank = { error: 0, warning: 1 };
  return findings.sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      compareUtf8(a.path, b.path) ||
      compareUtf8(a.code, b.code),
  );
}

/** A codon of hank.json with where it runs: its key (`id`, or `loopId/id`) and its loop. */
interface FlatCodon {
  key: string;
  codon: Record<string, unknown>;
  loop?: Record<string, unknown>;
}

/** The codons of hank.json in execution order. */
export function flattenCodons(raw: Record<string, unknown>): FlatCodon[] {
  const out: FlatCodon[] = [];
  for (const item of Array.isArray(raw.hank) ? raw.hank : []) {
    if (!item || typeof item !== 'object') continue;
    const node = item as Record<string, unknown>;
    if (node.type === 'loop' && Array.isArray(node.codons)) {
      for (const codon of node.codons)
        if (codon && typeof codon === 'object')
          out.push({
            key: `${String(node.id)}/${String((codon as Record<string, unknown>).id)}`,
            codon: codon as Record<string, unknown>,
            loop: node,
          });
    } else out.push({ key: String(node.id), codon: node });
  }
  return out;
}

const strings = (value: unknown): string[] =>
  typeof value === 'string' && value !== ''
    ? [value]
    : Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string' && item !== '')
      : [];

/** Every path hank.json names (and its sentinel files name), with the field that names it. */
function referencesOf(hankDir: string, raw: Record<string, unknown>): Reference[] {
  const refs: Reference[] = [];
  const add = (field: string, value: unknown, baseDir = '') => {
    for (const [index, ref] of strings(value).entries())
      refs.push({ field: Array.isArray(value) ? `${field}[${index}]` : field, ref, baseDir });
  };
  add('globalSystemPromptFile', raw.globalSystemPromptFile);
  for (const { key, codon } of flattenCodons(raw)) {
    for (const reference of codonReferences(key, codon)) {
      refs.push(reference);
      if (!reference.field.endsWith('.sentinelConfig')) continue;
      // A sentinel file's own references resolve from that file's directory.
      const configPath = posix.normalize(reference.ref);
      let bytes: Buffer | undefined;
      try {
        bytes = readRegularFileSync(join(hankDir, configPath), { maxBytes: 1_048_576 });
      } catch {
        bytes = undefined;
      }
      for (const ref of sentinelFileReferences(bytes))
        refs.push({
          field: `${reference.field} (${ref})`,
          ref,
          baseDir: posix.dirname(configPath),
        });
    }
  }
  return refs;
}

function codonReferences(key: string, codon: Record<string, unknown>): Reference[] {
  const refs: Reference[] = [];
  const add = (field: string, value: unknown, baseDir = '') => {
    for (const [index, ref] of strings(value).entries())
      refs.push({ field: Array.isArray(value) ? `${field}[${index}]` : field, ref, baseDir });
  };
  add(`${key}.promptFile`, codon.promptFile);
  add(`${key}.appendSystemPromptFile`, codon.appendSystemPromptFile);
  for (const [index, op] of (Array.isArray(codon.rigSetup) ? codon.rigSetup : []).entries()) {
    const copy = (op as { copy?: { from?: unknown } } | undefined)?.copy;
    if (copy) add(`${key}.rigSetup[${index}].copy.from`, copy.from);
  }
  for (const [index, entry] of (Array.isArray(codon.sentinels) ? codon.sentinels : []).entries()) {
    const config = (entry as { sentinelConfig?: unknown } | undefined)?.sentinelConfig;
    const field = `${key}.sentinels[${index}].sentinelConfig`;
    if (typeof config === 'string') add(field, config);
    else if (config && typeof config === 'object') {
      const inline = config as Record<string, unknown>;
      add(`${field}.systemPromptFile`, inline.systemPromptFile);
      add(`${field}.userPromptFile`, inline.userPromptFile);
      add(
        `${field}.structuredOutput.schemaFile`,
        (inline.structuredOutput as Record<string, unknown> | undefined)?.schemaFile,
      );
    }
  }
  return refs;
}

/**
 * Per-codon input hashes (`codonInputs`): sha256 of `hankweave-codon-inputs-v1\0` and the
 * canonical JSON of the codon as written, each path it names replaced by `{path, sha256}` (a
 * tree by the hash of its files' lock entries), with its position in execution order, its loop's
 * settings and the hank-wide inputs (global prompt, overrides). Comparing two locks says which
 * codons' inputs changed. Derived: nothing verifies it.
 */
export function computeCodonInputs(
  raw: Record<string, unknown>,
  hankFiles: readonly HankFile[],
): Record<string, string> {
  const files: Record<string, LockFileEntry> = Object.create(null);
  const bytesOf = new Map<string, Buffer>();
  for (const file of hankFiles) {
    files[file.path] = { mode: file.mode, sha256: file.sha256 };
    bytesOf.set(file.path, file.bytes);
  }
  const hashOf = (ref: string, baseDir = ''): { path: string; sha256: string } => {
    const path = posix.normalize(posix.join(baseDir, ref));
    const entry = files[path];
    if (entry) return { path, sha256: entry.sha256 };
    const prefix = path === '.' ? '' : `${path}/`;
    const tree = Object.fromEntries(
      Object.entries(files).filter(([file]) => file.startsWith(prefix)),
    );
    return { path, sha256: sha256Hex(canonicalJson(tree)) };
  };
  const substitute = (value: unknown) =>
    typeof value === 'string' && value !== ''
      ? hashOf(value)
      : Array.isArray(value)
        ? value.map((item) => (typeof item === 'string' ? hashOf(item) : item))
        : value;
  const global = {
    globalSystemPrompt: raw.globalSystemPromptText
      ? { text: raw.globalSystemPromptText }
      : raw.globalSystemPromptFile
        ? substitute(raw.globalSystemPromptFile)
        : null,
    overrides: raw.overrides ?? null,
  };
  const inputs: Record<string, string> = {};
  for (const [position, { key, codon, loop }] of flattenCodons(raw).entries()) {
    const node = structuredClone(codon);
    for (const field of ['promptFile', 'appendSystemPromptFile'])
      if (node[field] !== undefined) node[field] = substitute(node[field]);
    for (const op of Array.isArray(node.rigSetup) ? node.rigSetup : []) {
      const copy = (op as { copy?: { from?: unknown } }).copy;
      if (copy && typeof copy.from === 'string') copy.from = hashOf(copy.from) as never;
    }
    for (const entry of Array.isArray(node.sentinels) ? node.sentinels : []) {
      const sentinel = entry as { sentinelConfig?: unknown };
      if (typeof sentinel.sentinelConfig === 'string') {
        const config = hashOf(sentinel.sentinelConfig);
        const baseDir = posix.dirname(config.path);
        sentinel.sentinelConfig = {
          ...config,
          refs: sentinelFileReferences(bytesOf.get(config.path)).map((ref) => hashOf(ref, baseDir)),
        };
      }
    }
    const container = loop
      ? {
          terminateOn: loop.terminateOn ?? null,
          budget: loop.budget ?? null,
          archiveOnSuccess: loop.archiveOnSuccess ?? null,
        }
      : null;
    inputs[key] = sha256Hex(
      `hankweave-codon-inputs-v1\0${canonicalJson({ global, container, position, codon: node })}`,
    );
  }
  return Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => compareUtf8(a, b)));
}

/** A sentinel config file's own references (`systemPromptFile`, ...), from its bytes. */
function sentinelFileReferences(bytes: Buffer | undefined): string[] {
  if (!bytes) return [];
  try {
    const config = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    return [
      ...strings(config.systemPromptFile),
      ...strings(config.userPromptFile),
      ...strings((config.structuredOutput as Record<string, unknown> | undefined)?.schemaFile),
    ];
  } catch {
    return [];
  }
}
