// The projects `pnpm typecheck` hands to one `tsc --build` (see bin/typecheck.mjs).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The workspace's package directories (pnpm-workspace.yaml's `<dir>/*` patterns). */
export function workspaceDirs(root) {
  const manifest = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const section = manifest.split(/^packages:\s*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const patterns = [...section.matchAll(/^\s+-\s+['"]?([^'"\s]+)['"]?\s*$/gm)].map((m) => m[1]);
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) {
      throw new Error(
        `pnpm-workspace.yaml: typecheck only knows "<dir>/*" patterns, not ${pattern}`,
      );
    }
    const parent = join(root, pattern.slice(0, -2));
    if (!existsSync(parent)) return [];
    return readdirSync(parent, { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(parent, entry.name, 'package.json')),
      )
      .map((entry) => join(parent, entry.name));
  });
}

/** The tsconfig files a package's `typecheck` script checks, or none when it has no script. */
function projectsOf(dir) {
  const { name, scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const script = scripts?.typecheck;
  if (script === undefined) return [];
  return script.split('&&').map((step) => {
    const match = /^tsc(?: -p (\S+))?$/.exec(step.trim());
    if (!match) {
      throw new Error(
        `${name}: its typecheck script "${script}" is not plain \`tsc\` / \`tsc -p <tsconfig>\` steps; ` +
          'make it so, or teach tools/launcher/bin/typecheck.mjs its form.',
      );
    }
    return join(dir, match[1] ?? 'tsconfig.json');
  });
}

/**
 * A wrapper of a package's project that only adds `incremental` (its include and options stay the
 * package's: an extended config's paths resolve against that config). It lives in the package's
 * node_modules/.cache, so that `types` entries still resolve from the package's node_modules. The
 * packages' own tsconfigs leave `incremental` out, so a plain `tsc` in a package writes no build info.
 */
function wrap(root, dir, project) {
  const cache = join(dir, 'node_modules', '.cache', 'typecheck');
  mkdirSync(cache, { recursive: true });
  const wrapper = join(cache, relative(dir, project).replaceAll(sep, '__'));
  const config = {
    extends: project,
    compilerOptions: { incremental: true, tsBuildInfoFile: `${wrapper}.tsbuildinfo` },
  };
  const text = `${JSON.stringify(config, null, 2)}\n`;
  // Written only when it changes, and then without its old build info: tsc rechecks a project
  // whose tsconfig is newer than its build info, and rewrites the build info only when the
  // program changed, so a rewritten wrapper would be rechecked on every later run.
  if (!existsSync(wrapper) || readFileSync(wrapper, 'utf8') !== text) {
    rmSync(`${wrapper}.tsbuildinfo`, { force: true });
    writeFileSync(wrapper, text);
  }
  return relative(root, wrapper);
}

/**
 * Every workspace package's typecheck projects under `root`, as wrappers (paths relative to
 * `root`) in the order of pnpm-workspace.yaml and then of the directory names. Throws, naming the
 * package, on a typecheck script it cannot fold.
 */
export function typecheckProjects(root) {
  return workspaceDirs(root).flatMap((dir) =>
    projectsOf(dir).map((project) => wrap(root, dir, project)),
  );
}
