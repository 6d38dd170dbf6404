import { readFile } from 'node:fs/promises';

/** One entry point of a package: its import specifier, its source, its run-time exports. */
export interface ReadmeApiEntry {
  /** `@hankweave/harness`, or a subpath such as `@hankweave/harness/testing`. */
  specifier: string;
  /** The entry's source text (`src/index.ts`), whose `export type` names count as documented. */
  source: string;
  /** `Object.keys(await import(entry))`: what the export snapshot holds. */
  exports: readonly string[];
}

/** What differs between a README's API tables and the entries. */
export interface ReadmeApiReport {
  /** Run-time exports no API table names (`specifier: name`). */
  undocumented: string[];
  /** Names an API table gives that the entry exports neither as a value nor as a type. */
  unknown: string[];
}

/**
 * Compares a README's API tables with a package's entries, so the documented surface is exactly
 * the exported one. An API table is one whose header's first cell starts with `export`; its rows
 * name exports in backticks in the first cell (`` `createRuntime(options)` `` names
 * `createRuntime`). A table belongs to the main entry unless its header names a subpath
 * (`` | `./testing` export | ``); a row whose first span is a specifier
 * (`` `@hankweave/harness/testing`: `FakeHarness` ``) belongs to that entry.
 */
export function compareReadmeApi(
  readme: string,
  entries: readonly ReadmeApiEntry[],
): ReadmeApiReport {
  const main = entries[0];
  if (!main) throw new TypeError('compareReadmeApi needs at least one entry');
  const documented = new Map<string, Set<string>>(
    entries.map((entry) => [entry.specifier, new Set()]),
  );
  const lines = readme.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const header = firstCell(lines[index] ?? '');
    if (header === undefined || !/^(`[^`]+`\s*)?export/i.test(header)) continue;
    const subpath = /^`\.\/([^`]+)`/.exec(header)?.[1];
    const tableEntry = subpath ? `${main.specifier}/${subpath}` : main.specifier;
    for (index += 2; index < lines.length && lines[index]?.startsWith('|'); index++) {
      const spans = [...(firstCell(lines[index] ?? '') ?? '').matchAll(/`([^`]+)`/g)].map(
        (match) => match[1] ?? '',
      );
      const rowEntry =
        spans[0] !== undefined && documented.has(spans[0]) ? spans.shift() : tableEntry;
      const names = documented.get(rowEntry ?? tableEntry) ?? new Set<string>();
      for (const span of spans) {
        const name = /^[A-Za-z_$][\w$]*/.exec(span)?.[0];
        if (name) names.add(name);
      }
      documented.set(rowEntry ?? tableEntry, names);
    }
  }
  const undocumented: string[] = [];
  const unknown: string[] = [];
  for (const entry of entries) {
    const names = documented.get(entry.specifier) ?? new Set<string>();
    for (const name of entry.exports)
      if (!names.has(name)) undocumented.push(`${entry.specifier}: ${name}`);
    const types = typeExportNames(entry.source);
    for (const name of names) {
      if (!entry.exports.includes(name) && !types.has(name))
        unknown.push(`${entry.specifier}: ${name}`);
    }
  }
  return { undocumented, unknown };
}

/** One entry point to check: its specifier, its source file, and a loader for its module. */
export interface ReadmeApiModule {
  specifier: string;
  /** The entry's source, relative to the package directory (`src/index.ts`). */
  source: string;
  /** Imports the entry in the test (`() => import('../src/index.js')`), so the test's loader runs it. */
  load: () => Promise<object>;
}

/**
 * {@link compareReadmeApi} for a package directory: reads its `README.md` and the entries'
 * sources, and loads the entries. Each package's `readme-api` test is one call:
 * `expect(await checkReadmeApi(new URL('..', import.meta.url), [...])).toEqual({undocumented: [], unknown: []})`.
 */
export async function checkReadmeApi(
  packageDir: URL,
  modules: readonly ReadmeApiModule[],
): Promise<ReadmeApiReport> {
  const read = (path: string) => readFile(new URL(path, packageDir), 'utf8');
  const entries = await Promise.all(
    modules.map(async (module) => ({
      specifier: module.specifier,
      source: await read(module.source),
      exports: Object.keys(await module.load()),
    })),
  );
  return compareReadmeApi(await read('README.md'), entries);
}

/** Names a source file exports as types only (`export type { … }`, `type X` in `export { … }`). */
export function typeExportNames(source: string): Set<string> {
  const names = new Set<string>();
  for (const [, allTypes, list = ''] of source.matchAll(/export (type )?\{([^}]*)\}/g)) {
    for (const item of list.split(',').map((part) => part.trim())) {
      const name =
        item
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .at(-1) ?? '';
      if (name !== '' && (allTypes !== undefined || item.startsWith('type '))) names.add(name);
    }
  }
  for (const [, name] of source.matchAll(/export (?:interface|type) ([A-Za-z_$][\w$]*)/g)) {
    if (name) names.add(name);
  }
  return names;
}

function firstCell(line: string): string | undefined {
  if (!line.startsWith('|')) return undefined;
  return line.split('|')[1]?.trim();
}
