import { z } from 'zod';

/** A node of the tracked-file tree in `filetree.updated` (reference §3.3). */
export interface FileNode {
  name: string;
  path: string;
  isDirectory: boolean;
  children: FileNode[];
  lastModified: string;
}

/**
 * The deepest tree read. zod checks a recursive schema recursively (about 1 KB of stack per
 * level; the default stack overflowed near 850 levels), so a deeper tree read from a journal or
 * the wire is refused before the recursive check starts. A real tracked tree is a few dozen levels.
 */
const MAX_FILE_TREE_DEPTH = 256;

const recursiveFileNode: z.ZodType<FileNode> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    path: z.string(),
    isDirectory: z.boolean(),
    children: z.array(recursiveFileNode),
    lastModified: z.string(),
  }),
);

/** How many nodes deep `value` nests through `children`, counted without recursion. */
function childDepthExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, 'children')) continue;
    const children = (node as { children: unknown }).children;
    if (!Array.isArray(children) || children.length === 0) continue;
    if (depth >= limit) return true;
    for (const child of children) pending.push([child, depth + 1]);
  }
  return false;
}

export const fileNodeSchema: z.ZodType<FileNode> = z
  .unknown()
  .superRefine((value, ctx) => {
    if (childDepthExceeds(value, MAX_FILE_TREE_DEPTH)) {
      ctx.addIssue({
        code: 'custom',
        message: `The file tree nests more than ${MAX_FILE_TREE_DEPTH} levels deep; it is refused rather than checked`,
      });
    }
  })
  .pipe(recursiveFileNode);
