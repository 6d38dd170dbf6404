// Generates the benchmark tree: 100k files, 80k of them under an ignored node_modules/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Layout constants: 800 packages x 100 files = 80k ignored; 50 x 10 x 40 = 20k elsewhere. */
export const LAYOUT = {
  packages: 800,
  filesPerPackage: 100,
  modules: 50,
  subdirs: 10,
  filesPerSubdir: 40,
};

/**
 * Writes the tree under `root` and returns the number of files written: exactly 100,000, the
 * .gitignore files included in the 20k share. Deterministic, so every run measures the same tree.
 * About 1,100 of the 20k are ignored too (*.log at the root, *.tmp in nested .gitignore files).
 */
export function generateTree(root) {
  let count = 0;
  const write = (path, content) => {
    writeFileSync(path, content);
    count++;
  };
  mkdirSync(root, { recursive: true });
  write(join(root, '.gitignore'), 'node_modules/\n*.log\n/dist/\n');
  for (let p = 0; p < LAYOUT.packages; p++) {
    const half = LAYOUT.filesPerPackage / 2;
    for (const sub of ['lib', 'src']) {
      const dir = join(root, 'node_modules', `pkg-${p}`, sub);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < half; f++) write(join(dir, `file-${f}.js`), `module.exports = ${f};\n`);
    }
  }
  for (let m = 0; m < LAYOUT.modules; m++) {
    const moduleDir = join(root, 'src', `module-${m}`);
    for (let s = 0; s < LAYOUT.subdirs; s++) {
      const dir = join(moduleDir, `part-${s}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < LAYOUT.filesPerSubdir; f++) {
        // Every 20th file is a .log (ignored by the root rule), every 20th+1 a .tmp (nested rule).
        const ext = f % 20 === 0 ? 'log' : f % 20 === 1 ? 'tmp' : 'ts';
        // The .gitignore files replace generated files, so the total stays exact.
        if (m === 0 && s === 0 && f === 1) continue; // stands in for the root .gitignore
        if (s === 0 && f === 0 && m % 10 === 0) {
          write(join(moduleDir, '.gitignore'), '*.tmp\n!keep.tmp\nbuild/\n');
          continue;
        }
        write(join(dir, `file-${f}.${ext}`), `export const v${f} = ${f};\n`);
      }
    }
  }
  return count;
}
