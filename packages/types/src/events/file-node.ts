import { z } from 'zod';

/** A node of the tracked-file tree in `filetree.updated` (reference §3.3). */
export interface FileNode {
  name: string;
  path: string;
  isDirectory: boolean;
  children: FileNode[];
  lastModified: string;
}

export const fileNodeSchema: z.ZodType<FileNode> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    path: z.string(),
    isDirectory: z.boolean(),
    children: z.array(fileNodeSchema),
    lastModified: z.string(),
  }),
);
