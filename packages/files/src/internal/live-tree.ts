import type { TreeListing } from '../unified-file-resolver.js';
import { sortPaths } from './compare-paths.js';

const FILE = 0;
const SPECIAL = 1;
const DIRECTORY = 2;

/**
 * A listing of a whole tree (what `listTree` returns) kept up to date one dirty subtree at a
 * time. It is held as each directory's entries ('' for the root), so dropping a subtree visits
 * only that subtree, and the listing comes back out in the walk's own order (depth first, each
 * directory's entries in git's order, a directory as its name plus '/').
 */
export class LiveTree {
  readonly #children = new Map<string, Map<string, number>>([['', new Map()]]);
  /** Each directory's entry keys in walk order, kept until its entries change. */
  readonly #sorted = new Map<string, string[]>();
  readonly #ignoreFiles = new Map<string, string>();

  constructor(listing: TreeListing) {
    this.#add(listing);
  }

  /**
   * Replaces whatever was listed at or below each of `roots` (none below another) with
   * `listing`, a listing of those roots alone (`listBelow`).
   */
  replace(roots: readonly string[], listing: TreeListing): void {
    for (const root of roots) this.#drop(root);
    const below = roots.map((root) => `${root}/`);
    for (const path of [...this.#ignoreFiles.keys()]) {
      if (below.some((prefix) => path.startsWith(prefix))) this.#ignoreFiles.delete(path);
    }
    this.#add(listing);
  }

  /** The listing, as a walk of the tree would return it (without warnings). */
  toListing(): TreeListing {
    const files: string[] = [];
    const directories: string[] = [];
    const specials: string[] = [];
    const visit = (dir: string, prefix: string) => {
      const entries = this.#children.get(dir);
      if (!entries) return;
      for (const key of this.#keysOf(dir, entries)) {
        if (key.endsWith('/')) {
          const path = prefix + key.slice(0, -1);
          directories.push(path);
          visit(path, `${path}/`);
        } else {
          files.push(prefix + key);
          if (entries.get(key) === SPECIAL) specials.push(prefix + key);
        }
      }
    };
    visit('', '');
    const ignoreFiles = Object.fromEntries(
      [...this.#ignoreFiles].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    return { files, directories, specials, ignoreFiles, warnings: [] };
  }

  #keysOf(dir: string, entries: Map<string, number>): string[] {
    let keys = this.#sorted.get(dir);
    if (!keys) {
      keys = [];
      for (const [name, kind] of entries) keys.push(kind === DIRECTORY ? `${name}/` : name);
      sortPaths(keys);
      this.#sorted.set(dir, keys);
    }
    return keys;
  }

  #add(listing: TreeListing): void {
    const specials = new Set(listing.specials);
    // Directories first: a file's parent is then always known.
    for (const path of listing.directories) this.#set(path, DIRECTORY);
    for (const path of listing.files) this.#set(path, specials.has(path) ? SPECIAL : FILE);
    for (const [path, text] of Object.entries(listing.ignoreFiles))
      this.#ignoreFiles.set(path, text);
  }

  #set(path: string, kind: number): void {
    const slash = path.lastIndexOf('/');
    const parent = slash === -1 ? '' : path.slice(0, slash);
    let entries = this.#children.get(parent);
    if (!entries) {
      entries = new Map();
      this.#children.set(parent, entries);
    }
    entries.set(path.slice(slash + 1), kind);
    this.#sorted.delete(parent);
    if (kind === DIRECTORY && !this.#children.has(path)) this.#children.set(path, new Map());
  }

  #drop(path: string): void {
    const slash = path.lastIndexOf('/');
    const parent = slash === -1 ? '' : path.slice(0, slash);
    if (this.#children.get(parent)?.delete(path.slice(slash + 1))) this.#sorted.delete(parent);
    const stack = [path];
    for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
      const entries = this.#children.get(dir);
      if (!entries) continue;
      this.#children.delete(dir);
      this.#sorted.delete(dir);
      for (const [name, kind] of entries) if (kind === DIRECTORY) stack.push(`${dir}/${name}`);
    }
  }
}
