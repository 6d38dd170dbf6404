import { readFileSync, realpathSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import {
  type CodonConfig,
  codonConfigSchema,
  defaultModelCatalog,
  describeJsonError,
  type HankConfig,
  type HarnessName,
  hankConfigSchema,
  hankNameFromPath,
  loopConfigSchema,
  type ModelCatalog,
  parallelConfigSchema,
  parseJsonWithLocation,
  type SentinelConfig,
  sentinelConfigSchema,
  suggestKey,
} from '@hankweave/types';
import { z } from 'zod';
import { compatWarnings } from './hank-compat.js';
import {
  formatJsonPath,
  type HankIssue,
  type HankValidation,
  zodIssueMessage,
} from './hank-issue.js';
import {
  hankModelIssues,
  hankModelWarnings,
  modelIssue,
  SENTINEL_HARNESSES,
} from './hank-model-issues.js';
import { checkHankPaths, checkSentinelConfigPaths } from './hank-paths.js';
import {
  type CopyTreeInspector,
  checkFileRef,
  checkTreeRef,
  promptSizeWarning,
  type RefProblem,
} from './hank-refs.js';
import { checkHankRules } from './hank-rules.js';
import { clip, describeValue, snapshotInput } from './input-limits.js';
import { notInEffectWarnings } from './not-in-effect.js';
import { codonsInOrder } from './plan-order.js';
import { knownKeysAt, likeliestOption, unionOptionsAt } from './unknown-key-hints.js';

/** Options of `validateHank`. */
export interface ValidateHankOptions {
  /** The directory of hank.json; file references are checked on disk only when it is given. */
  hankDir?: string;
  /**
   * The path of hank.json: a hank without `meta` is named after it (the file name without
   * `.json`, or the folder's name for `hank.json`; see `hankNameFromPath`). Defaults to
   * `<hankDir>/hank.json`.
   */
  hankPath?: string;
  /** The environment for `requirements.env` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The catalog every model id is checked against (default the built-in one): an id it does not
   * know is `unknown_model`, one no installed harness runs is `unserved_provider`.
   */
  models?: ModelCatalog;
  /**
   * The agent harnesses installed (default `SERVED_HARNESSES`: Claude Code): a codon model that
   * runs on none of them is `unserved_provider`. Pass `['claude-code', 'pi']` when `@hankweave/pi`
   * is installed, so `gpt-5.2` and `gemini-3-pro-preview` pass.
   */
  harnesses?: readonly HarnessName[];
  /**
   * What a rig copy of `from` would meet after its ignore rules (the runtime and the CLI pass
   * `@hankweave/files`' `listCopyTree`): only the links, special files and unreadable
   * directories left after the rules are errors, so an ignored `node_modules/` full of links is
   * fine. Without it, any link or special file in a copied tree is an error.
   */
  copyTree?: CopyTreeInspector;
}

const CODON_KEYS = Object.keys(codonConfigSchema.shape);

/** The root alone: items are checked one by one below. */
const ROOT_SHAPE = hankConfigSchema.extend({ hank: z.array(z.unknown()).min(1) });

/**
 * Unknown keys named one by one in an object; the rest are counted in one issue. A real typo
 * list is a handful; 100,000 junk keys would otherwise make 100,000 messages and hint searches.
 */
const MAX_UNKNOWN_KEYS_LISTED = 50;

/** A sentinel file larger than this is refused unread (a real one is a few kilobytes). */
const MAX_SENTINEL_FILE_BYTES = 1_048_576;

/**
 * Validates a parsed hank.json: the schema (unknown fields get "did you mean" hints), the
 * cross-field rules and warnings of reference §1.11, every path the hank names under agentRoot
 * (rig copy targets, tracked, output and archive globs, sentinel output files), and, given
 * `hankDir`, every file reference (§1.1: portable relative paths, no escaping the hank dir, no
 * symlinks, regular files only) and every sentinel file it names; without `hankDir` the file
 * references are checked lexically.
 *
 * Hanks as the original runtime accepts them pass: `meta` is optional (a hank without it is
 * named after its file, version "0.0.0"), a beforeCopy item may be written `{run}` and a
 * command item may carry `workingDirectory` beside `command` (both warn, and parse to the one
 * canonical shape; see `rigCommandOperationSchema`). A missing required field says what to add.
 *
 * Total: for any value (JSON or not: `undefined`, a function, a cycle, a throwing getter) it
 * returns issues and never throws. Inputs deeper than 100 levels, or with more than 100,000
 * values or 10,000,000 characters of text, get one `too_deep` or `too_large` issue.
 */
export function validateHank(
  input: unknown,
  options: ValidateHankOptions = {},
): HankValidation<HankConfig> {
  const errors: HankIssue[] = [];
  const warnings: HankIssue[] = [];
  // Everything below reads a bounded plain-data copy, so no input can throw, overflow the stack
  // or run a getter twice; the caller's value is never touched again.
  const snapshot = snapshotInput(input);
  if ('issue' in snapshot) return { valid: false, errors: [snapshot.issue], warnings };
  const data = snapshot.value;
  // Items are checked one by one with the schema their `type` selects, so an error inside a codon
  // is reported at its own path instead of as "matches neither codon nor loop".
  const rootResult = ROOT_SHAPE.safeParse(data);
  if (!rootResult.success) errors.push(...zodIssues(rootResult.error, data, hankConfigSchema));
  const hankItems = ownField(data, 'hank');
  const items = Array.isArray(hankItems) ? hankItems : [];
  for (const [index, item] of items.entries()) {
    const type = ownField(item, 'type');
    if (type !== undefined && type !== 'codon' && type !== 'loop' && type !== 'parallel') {
      errors.push({
        path: formatJsonPath(['hank', index, 'type']),
        code: 'invalid_value',
        message: `type must be "codon" (the default), "loop" or "parallel", not ${describeValue(type)}`,
      });
      continue;
    }
    if (type === 'parallel') {
      errors.push(...parallelIssues(item, ['hank', index]));
      continue;
    }
    const schema = type === 'loop' ? loopConfigSchema : codonConfigSchema;
    const result = schema.safeParse(item);
    if (!result.success) errors.push(...zodIssues(result.error, item, schema, ['hank', index]));
  }
  if (errors.length > 0) return { valid: false, errors, warnings };

  const config = hankConfigSchema.parse(data);
  if (ownField(data, 'meta') === undefined) {
    config.meta = { name: hankNameFromPath(options.hankPath, options.hankDir), version: '0.0.0' };
  }
  warnings.push(...compatWarnings(data));
  warnings.push(...notInEffectWarnings(config));
  const rules = checkHankRules(config, data, options.env ?? process.env);
  const models = options.models ?? defaultModelCatalog;
  // Cause before consequence: a model that does not exist comes before a continue-previous
  // codon's model mismatch, which may only follow from it (a typo in the earlier codon).
  const mismatches = rules.errors.filter((issue) => issue.code === 'continuation_model_mismatch');
  errors.push(...rules.errors.filter((issue) => !mismatches.includes(issue)));
  errors.push(...hankModelIssues(config, models, rules.errors, options.harnesses));
  warnings.push(...hankModelWarnings(config, models, options.harnesses));
  errors.push(...mismatches);
  warnings.push(...rules.warnings);
  const paths = checkHankPaths(config, { onDisk: options.hankDir !== undefined });
  errors.push(...paths.errors);
  warnings.push(...paths.warnings);
  if (options.hankDir !== undefined)
    checkFiles(config, options.hankDir, models, errors, warnings, options.copyTree);
  return { valid: errors.length === 0, errors, warnings, config };
}

/**
 * The structural issues of a parallel block: a block inside a branch is refused with its own
 * message (blocks do not nest), and each branch item is checked with the schema its `type`
 * selects, as top-level items are, so an error inside a codon is reported at its own path.
 */
function parallelIssues(block: unknown, path: PropertyKey[]): HankIssue[] {
  const issues: HankIssue[] = [];
  const branches = ownField(block, 'branches');
  const items = (branch: unknown) => {
    const list = ownField(branch, 'items');
    return Array.isArray(list) ? list : [];
  };
  const checked = new Set<string>();
  for (const [branchIndex, branch] of (Array.isArray(branches) ? branches : []).entries()) {
    for (const [at, item] of items(branch).entries()) {
      const itemPath = [...path, 'branches', branchIndex, 'items', at];
      const type = ownField(item, 'type');
      checked.add(`${branchIndex}/${at}`);
      if (type === 'parallel') {
        issues.push({
          path: formatJsonPath([...itemPath, 'type']),
          code: 'nested_parallel',
          message:
            'Parallel blocks do not nest: a branch holds codons and loops. Put the inner branches in the outer block, or run them in a block after it',
        });
        continue;
      }
      if (type !== undefined && type !== 'codon' && type !== 'loop') {
        issues.push({
          path: formatJsonPath([...itemPath, 'type']),
          code: 'invalid_value',
          message: `type must be "codon" (the default) or "loop" in a branch, not ${describeValue(type)}`,
        });
        continue;
      }
      const schema = type === 'loop' ? loopConfigSchema : codonConfigSchema;
      const result = schema.safeParse(item);
      if (!result.success) issues.push(...zodIssues(result.error, item, schema, itemPath));
    }
  }
  const result = parallelConfigSchema.safeParse(block);
  if (!result.success) {
    // Issues inside branch items were reported above, item by item.
    const own = result.error.issues.filter(
      (issue) =>
        !(
          issue.path[0] === 'branches' &&
          issue.path[2] === 'items' &&
          issue.path.length >= 4 &&
          checked.has(`${String(issue.path[1])}/${String(issue.path[3])}`)
        ),
    );
    issues.push(...issuesOf(own, block, parallelConfigSchema, path));
  }
  return issues;
}

/** Turns zod issues into hank issues, with hints for unknown keys. */
function zodIssues(
  error: z.ZodError,
  value: unknown,
  schema: z.ZodType,
  prefix: PropertyKey[] = [],
): HankIssue[] {
  // Items of `hank` are checked one by one (see validateHank), not through the root.
  const own = error.issues.filter(
    (issue) => !(prefix.length === 0 && issue.path[0] === 'hank' && issue.path.length > 1),
  );
  return issuesOf(own, value, schema, prefix);
}

function issuesOf(
  list: readonly z.core.$ZodIssue[],
  value: unknown,
  schema: z.ZodType,
  prefix: PropertyKey[],
): HankIssue[] {
  const issues: HankIssue[] = [];
  for (const issue of list) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, value, issue.path);
      for (const key of issue.keys.slice(0, MAX_UNKNOWN_KEYS_LISTED)) {
        issues.push({
          path: formatJsonPath([...path, key]),
          code: 'unknown_field',
          message: unknownKeyMessage(key, known, path),
        });
      }
      const more = issue.keys.length - MAX_UNKNOWN_KEYS_LISTED;
      if (more > 0) {
        issues.push({
          path: formatJsonPath(path),
          code: 'unknown_field',
          message: `${more} more unknown fields ${path.length === 0 ? 'at the root' : `in ${formatJsonPath(path)}`}; fix the ones above first. Known fields: ${known.join(', ')}`,
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // A value that matches no option of a union (a beforeCopy item in either shape, a file
      // reference that is neither a string nor a list): report what is wrong with the option it
      // was most likely meant for, not zod's bare "Invalid input".
      const item = valueAtPath(value, issue.path);
      const options = unionOptionsAt(schema, value, issue.path);
      if (item !== undefined && options?.length === issue.errors.length) {
        const pick = likeliestOption(options, item);
        const chosen = issue.errors[pick] ?? [];
        issues.push(...issuesOf(chosen, item, options[pick] as z.ZodType, path));
        continue;
      }
    }
    issues.push({
      path: formatJsonPath(path),
      code: 'invalid_value',
      message: zodIssueMessage(issue, value),
    });
  }
  return issues;
}

/** `value` at a zod issue's path, through own properties only. */
function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) current = ownField(current, String(segment));
  return current;
}

function unknownKeyMessage(key: string, known: string[], path: PropertyKey[]): string {
  if (path.length === 0 && CODON_KEYS.includes(key)) {
    return `Unknown field "${key}" at the root. "${key}" is a codon field: move it into a codon inside "hank"`;
  }
  const suggestion = suggestKey(key, known);
  const where = path.length === 0 ? 'at the root' : `in ${formatJsonPath(path)}`;
  const name = JSON.stringify(clip(key));
  return suggestion
    ? `Unknown field ${name} ${where}. Did you mean "${suggestion}"?`
    : `Unknown field ${name} ${where}. Known fields: ${known.join(', ')}`;
}

/** `value[key]` for an own property of an object, else undefined (never an inherited member). */
function ownField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function checkFiles(
  config: HankConfig,
  hankDir: string,
  models: ModelCatalog,
  errors: HankIssue[],
  warnings: HankIssue[],
  copyTree?: CopyTreeInspector,
): void {
  let hankRoot: string;
  try {
    hankRoot = realpathSync(hankDir);
  } catch {
    errors.push({
      path: '(root)',
      code: 'missing_file',
      message: `The hank directory ${hankDir} does not exist`,
    });
    return;
  }
  const report = (path: PropertyKey[], ref: string, problem: RefProblem) =>
    errors.push({
      path: formatJsonPath(path),
      code: problem.code,
      message: `"${ref}" ${problem.message}`,
    });
  const checkPrompts = (refs: string | string[] | undefined, path: PropertyKey[], baseDir = '') => {
    if (refs === undefined) return;
    for (const [index, ref] of (Array.isArray(refs) ? refs : [refs]).entries()) {
      const at = Array.isArray(refs) ? [...path, index] : path;
      const result = checkFileRef(hankRoot, baseDir, ref);
      if ('code' in result) report(at, ref, result);
      else {
        const size = promptSizeWarning(result.size);
        if (size)
          warnings.push({
            path: formatJsonPath(at),
            code: 'prompt_size',
            message: `"${ref}" ${size}`,
          });
      }
    }
  };
  checkPrompts(config.globalSystemPromptFile, ['globalSystemPromptFile']);
  for (const { codon, path } of codonsInOrder(config)) {
    checkPrompts(codon.promptFile, [...path, 'promptFile']);
    checkPrompts(codon.appendSystemPromptFile, [...path, 'appendSystemPromptFile']);
    for (const [index, op] of (codon.rigSetup ?? []).entries()) {
      if (op.type !== 'copy') continue;
      const problem = checkTreeRef(hankRoot, op.copy.from, copyTree);
      if (problem) report([...path, 'rigSetup', index, 'copy', 'from'], op.copy.from, problem);
    }
    checkSentinelFiles(codon, path, hankRoot, models, errors, warnings, checkPrompts);
  }
}

function checkSentinelFiles(
  codon: CodonConfig,
  path: PropertyKey[],
  hankRoot: string,
  models: ModelCatalog,
  errors: HankIssue[],
  warnings: HankIssue[],
  checkPrompts: (
    refs: string | string[] | undefined,
    path: PropertyKey[],
    baseDir?: string,
  ) => void,
): void {
  for (const [index, entry] of (codon.sentinels ?? []).entries()) {
    const entryPath = [...path, 'sentinels', index, 'sentinelConfig'];
    // A sentinel that fails to load only fails the codon when the codon asks for that.
    const sink = entry.settings?.failCodonIfNotLoaded ? errors : warnings;
    let config: SentinelConfig;
    let baseDir = '';
    if (typeof entry.sentinelConfig === 'string') {
      const ref = entry.sentinelConfig;
      const file = checkFileRef(hankRoot, '', ref);
      if ('code' in file) {
        sink.push({
          path: formatJsonPath(entryPath),
          code: file.code,
          message: `"${ref}" ${file.message}`,
        });
        continue;
      }
      if (file.size > MAX_SENTINEL_FILE_BYTES) {
        sink.push({
          path: formatJsonPath(entryPath),
          code: 'too_large',
          message: `"${ref}" is ${file.size} bytes; a sentinel file holds at most ${MAX_SENTINEL_FILE_BYTES.toLocaleString('en-US')} (keep long prompts in userPromptFile)`,
        });
        continue;
      }
      let parsed: unknown;
      let text: string;
      try {
        text = readFileSync(file.path, 'utf8');
      } catch (cause) {
        sink.push({
          path: formatJsonPath(entryPath),
          code: 'invalid_sentinel',
          message: `"${ref}" cannot be read: ${clip((cause as Error).message, 200)}`,
        });
        continue;
      }
      const json = parseJsonWithLocation(text, ref);
      if (!json.ok) {
        const { line, column, message } = json.error;
        sink.push({
          path: formatJsonPath(entryPath),
          code: 'invalid_sentinel',
          // Line and column only: the file may be anything readable, never quoted.
          message: `"${ref}" is not valid JSON: line ${line}, column ${column}: ${describeJsonError(message)}`,
        });
        continue;
      }
      parsed = json.value;
      const bounded = snapshotInput(parsed, {
        name: `The sentinel file ${ref}`,
        pathPrefix: `${ref}: `,
      });
      if ('issue' in bounded) {
        sink.push(bounded.issue);
        continue;
      }
      parsed = bounded.value;
      const result = sentinelConfigSchema.safeParse(parsed);
      if (!result.success) {
        for (const issue of zodIssues(result.error, parsed, sentinelConfigSchema)) {
          sink.push({
            ...issue,
            path: `${ref}: ${issue.path}`,
            code: issue.code === 'unknown_field' ? 'unknown_field' : 'invalid_sentinel',
          });
        }
        continue;
      }
      config = result.data;
      // A model the catalog does not know is an error whether or not the sentinel may fail to load.
      const model = modelIssue(config.model, `${ref}: model`, models, SENTINEL_HARNESSES);
      if (model) errors.push(model);
      baseDir = relative(hankRoot, dirname(file.path)).split(sep).join('/');
      // Output paths inside a sentinel file are checked here (inline configs by checkHankPaths);
      // a bad one fails the sentinel's load, so it goes where the other load problems go.
      checkSentinelConfigPaths(config, [], (at, value, problem) =>
        sink.push({
          path: `${ref}: ${formatJsonPath(at)}`,
          code: problem.code,
          message: `${JSON.stringify(clip(value))} ${problem.message}`,
        }),
      );
    } else {
      config = entry.sentinelConfig;
    }
    // References inside a sentinel file resolve against that file's own directory.
    checkPrompts(config.systemPromptFile, [...entryPath, 'systemPromptFile'], baseDir);
    checkPrompts(config.userPromptFile, [...entryPath, 'userPromptFile'], baseDir);
    checkPrompts(
      config.structuredOutput?.schemaFile,
      [...entryPath, 'structuredOutput', 'schemaFile'],
      baseDir,
    );
  }
}
