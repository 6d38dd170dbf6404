import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '@hankweave/durable-io/testing';

/** Names chosen to stress matching: case twins, spaces, unicode, glob characters, astral planes. */
const NAMES = [
  'a',
  'b',
  'src',
  'lib',
  'build',
  'dist',
  'node_modules',
  'logs',
  'tmp',
  'keep',
  'Doc',
  'doc',
  'x y',
  'ünï',
  'café',
  '日本',
  '#hash',
  '!bang',
  'br[a]ck',
  'star*',
  'q?',
  'trail ',
  '.hidden',
  'deep',
  'back\\slash',
  'emoji😀',
  'ﬀ',
  'é',
];
const EXTENSIONS = ['', '.ts', '.js', '.log', '.md', '.tmp', '.TS'];

/** Escapes a literal name for a .gitignore pattern. */
export function escapeForGitignore(name: string): string {
  let escaped = name.replace(/[\\*?[]/g, '\\$&');
  if (escaped.startsWith('#') || escaped.startsWith('!')) escaped = `\\${escaped}`;
  return escaped.replace(/ +$/, (spaces) => '\\ '.repeat(spaces.length));
}

type Template = (n: string, m: string, e: string) => string;
const TEMPLATES: Template[] = [
  (n) => n,
  (n) => `${n}/`,
  (n) => `/${n}`,
  (n) => `!${n}`,
  (n) => `!${n}/`,
  (n) => `${n}/*`,
  (n, m) => `!${n}/${m}`,
  (n) => `**/${n}`,
  (n) => `${n}/**`,
  (_n, _m, e) => `*${e}`,
  (_n, _m, e) => `!*${e}`,
  (n, m) => `${n}/**/${m}`,
  (n) => `${n}*`,
  (n, m) => `/${n}/${m}`,
  (n) => `**/${n}/`,
  (n, _m, e) => `${n}/*${e}`,
  (_n, _m, e) => `?${e}`,
  (_n, _m, e) => `??${e}`,
  () => '[ab]*',
  () => '[!a-z]*',
  () => '# a comment',
  () => '',
  (n) => `${n}   `,
  (n) => `!/${n}`,
  () => '*',
  () => '!*/',
];

/** The paths of everything the generator created (files and symlinks), POSIX, relative. */
export interface RandomTree {
  readonly entries: string[];
  readonly ignoreFiles: Record<string, string>;
}

/** Writes a random tree with nested .gitignore files under `root` (which must exist). */
export function writeRandomTree(root: string, seed: number): RandomTree {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const tree: RandomTree = { entries: [], ignoreFiles: {} };
  const ext = () => pick(EXTENSIONS.slice(1));
  const rule = () => {
    const template = random() < 0.1 ? pick(TEMPLATES.slice(-2)) : pick(TEMPLATES.slice(0, -2));
    return template(escapeForGitignore(pick(NAMES)), escapeForGitignore(pick(NAMES)), ext());
  };

  const fill = (dirRel: string, depth: number): void => {
    const used = new Set<string>();
    const count = 2 + Math.floor(random() * 5);
    for (let i = 0; i < count; i++) {
      const name = pick(NAMES) + (random() < 0.5 ? pick(EXTENSIONS) : '');
      if (used.has(name)) continue;
      used.add(name);
      const rel = dirRel + name;
      const abs = join(root, rel);
      const roll = random();
      if (depth < 4 && roll < 0.35) {
        mkdirSync(abs);
        fill(`${rel}/`, depth + 1);
      } else if (roll < 0.42) {
        symlinkSync(pick(['.', '..', 'a', 'missing', name, 'src/a.ts']), abs);
        tree.entries.push(rel);
      } else {
        writeFileSync(abs, `${rel}\n`);
        tree.entries.push(rel);
      }
    }
    if (random() < (depth === 0 ? 0.9 : 0.45)) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 6) }, rule);
      const text = `${lines.join('\n')}${random() < 0.5 ? '\n' : ''}`;
      writeFileSync(join(root, dirRel, '.gitignore'), text);
      tree.ignoreFiles[`${dirRel}.gitignore`] = text;
      tree.entries.push(`${dirRel}.gitignore`);
    }
  };
  fill('', 0);
  return tree;
}
