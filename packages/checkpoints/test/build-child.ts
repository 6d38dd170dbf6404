import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'tsup';

// The child processes of crash.int.test.ts and worktrees.int.test.ts run the package bundled
// from source (plain node, killed mid-write by the tests), built the same way for both.
// Test-only: tsup.config.ts builds src/index.ts and src/testing.ts alone, and package.json ships
// no test/.

const packageDir = resolve(import.meta.dirname, '..');

/** A child script of test/, bundled into a fresh directory. */
export interface ChildBundle {
  /** The bundled script, to spawn once {@link ChildBundle.build} resolved. */
  readonly script: string;
  build(): Promise<void>;
  /** Removes the bundle's directory. */
  remove(): void;
}

/** The bundle of `test/<name>.ts` (a child script), built by `build()` in a `beforeAll`. */
export function childBundle(name: string): ChildBundle {
  // Inside the package so the bundle resolves isomorphic-git from its node_modules; unique per run.
  const outDir = join(packageDir, 'node_modules', '.cache', `${name}-${process.pid}-${Date.now()}`);
  const typesErrors = join(
    dirname(createRequire(import.meta.url).resolve('@hankweave/types/package.json')),
    'src',
    'errors.ts',
  );
  return {
    script: join(outDir, `${name}.js`),
    async build() {
      mkdirSync(outDir, { recursive: true });
      await build({
        entry: { [name]: join(packageDir, 'test', `${name}.ts`) },
        outDir,
        format: ['esm'],
        platform: 'node',
        target: 'node20',
        dts: false,
        sourcemap: false,
        clean: false,
        silent: true,
        config: false,
        splitting: false,
        // The engine needs only the error toolkit from @hankweave/types; bundling that one file
        // spares each of the 100+ children the startup cost of every zod schema the package
        // defines. @hankweave/durable-io is small and resolved from the package's node_modules at
        // run time.
        external: ['isomorphic-git', '@hankweave/durable-io'],
        noExternal: ['@hankweave/types'],
        esbuildOptions(options) {
          options.alias = { '@hankweave/types': typesErrors };
        },
      });
    },
    remove() {
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
