import { readFileSync } from 'node:fs';
import { isMissing } from '@hankweave/durable-io';
import { parseJsonWithLocation, suggestKey } from '@hankweave/types';
import { RuntimeError } from '../errors.js';
import {
  CONFIG_KEY_SPECS,
  type ConfigValue,
  checkConfigValue,
  envNameOf,
  NESTED_CONFIG_OBJECTS,
  RUNTIME_CONFIG_KEYS,
} from './runtime-config-keys.js';

/** The name of the runtime config file (reference §1.10). */
export const RUNTIME_CONFIG_FILE = 'hankweave.json';

/** Values of one source, by dotted key. */
export type ConfigValues = Map<string, ConfigValue>;

/** One thing wrong with a source: the field (or variable) and what is wrong with it. */
export interface ConfigProblem {
  field: string;
  message: string;
}

/**
 * Reads `hankweave.json` strictly: unknown keys (with a "did you mean"), wrong types and ranges
 * are all reported at once. A missing file is no config (`undefined`).
 *
 * @throws {RuntimeError} RUNTIME_INVALID_OPTION naming the file and each field
 *   (`details.file`, `details.problems`; for a JSON syntax error also `line` and `column`).
 */
export function readRuntimeConfigFile(file: string): ConfigValues | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new RuntimeError(
      'RUNTIME_INVALID_OPTION',
      `Cannot read ${file}: ${(error as Error).message}`,
      {
        cause: error,
        details: { option: RUNTIME_CONFIG_FILE, file },
      },
    );
  }
  const parsed = parseJsonWithLocation(text, file);
  if (!parsed.ok) {
    const { line, column, formatted } = parsed.error;
    throw new RuntimeError('RUNTIME_INVALID_OPTION', formatted, {
      details: { option: RUNTIME_CONFIG_FILE, file, line, column },
    });
  }
  const { values, problems } = parseRuntimeConfig(parsed.value);
  if (problems.length > 0) throw configError(file, problems);
  return values;
}

/** The error of a config source with problems: `<file>: <field>: <what>` per problem. */
export function configError(source: string, problems: ConfigProblem[]): RuntimeError {
  const list = problems.map((problem) => `  ${problem.field}: ${problem.message}`).join('\n');
  return new RuntimeError(
    'RUNTIME_INVALID_OPTION',
    `${source} is not a valid runtime config:\n${list}`,
    {
      details: { option: problems[0]?.field, file: source, problems },
    },
  );
}

/** Checks a parsed hankweave.json and flattens it to dotted keys. */
export function parseRuntimeConfig(raw: unknown): {
  values: ConfigValues;
  problems: ConfigProblem[];
} {
  const values: ConfigValues = new Map();
  const problems: ConfigProblem[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { values, problems: [{ field: '(root)', message: 'expects an object' }] };
  }
  const topKeys = [
    ...new Set(RUNTIME_CONFIG_KEYS.map((spec) => spec.key.split('.')[0] as string)),
    '$schema',
  ];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$schema') continue;
    if ((NESTED_CONFIG_OBJECTS as readonly string[]).includes(key)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push({ field: key, message: 'expects an object' });
        continue;
      }
      const inner = RUNTIME_CONFIG_KEYS.filter((spec) => spec.key.startsWith(`${key}.`)).map(
        (spec) => spec.key.slice(key.length + 1),
      );
      for (const [innerKey, innerValue] of Object.entries(value)) {
        check(`${key}.${innerKey}`, innerValue, inner, innerKey);
      }
      continue;
    }
    check(key, value, topKeys, key);
  }
  return { values, problems };

  function check(field: string, value: unknown, known: string[], name: string): void {
    const spec = CONFIG_KEY_SPECS.get(field);
    if (!spec) {
      const hint = suggestKey(name, known);
      problems.push({
        field,
        message: `unknown key${hint ? ` (did you mean "${hint}"?)` : ''}; known: ${known.filter((k) => k !== '$schema').join(', ')}`,
      });
      return;
    }
    const checked = checkConfigValue(spec, value);
    if (checked.ok) values.set(field, checked.value);
    else problems.push({ field, message: `${checked.problem}, got ${JSON.stringify(value)}` });
  }
}

/**
 * The `HANKWEAVE_RUNTIME_*` variables: booleans `true`/`1` (`false`/`0`), numbers parsed. A
 * malformed value is a problem; an unknown `HANKWEAVE_RUNTIME_*` name is a warning with a hint
 * (other tools may set variables of that prefix).
 */
export function runtimeConfigFromEnv(env: NodeJS.ProcessEnv): {
  values: ConfigValues;
  problems: ConfigProblem[];
  warnings: string[];
} {
  const values: ConfigValues = new Map();
  const problems: ConfigProblem[] = [];
  const warnings: string[] = [];
  const byName = new Map(RUNTIME_CONFIG_KEYS.map((spec) => [envNameOf(spec.key), spec]));
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('HANKWEAVE_RUNTIME_') || value === undefined) continue;
    const spec = byName.get(name);
    if (!spec) {
      const hint = suggestKey(name, [...byName.keys()]);
      warnings.push(
        `${name} is not a runtime setting and is ignored${hint ? ` (did you mean ${hint}?)` : ''}`,
      );
      continue;
    }
    const checked = checkConfigValue(spec, value, true);
    if (checked.ok) values.set(spec.key, checked.value);
    else
      problems.push({ field: name, message: `${checked.problem}, got ${JSON.stringify(value)}` });
  }
  return { values, problems, warnings };
}
