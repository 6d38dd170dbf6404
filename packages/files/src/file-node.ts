/**
 * One node of the tree sent with `filetree.updated` (reference §3.3): `{name, path, isDirectory,
 * children, lastModified}`, children in git's tree order, `lastModified` the newest mtime below.
 */
export type { FileNode } from '@hankweave/types';
