export { type BuildFileTreeOptions, buildFileTree } from './build-file-tree.js';
export {
  ChangeScanner,
  type ChangeScannerOptions,
  type ListedTree,
  type ScanResult,
} from './change-scanner.js';
export {
  type CopyRuleSource,
  type CopyTreeFile,
  type CopyTreeListing,
  copyRuleSource,
  DEFAULT_COPY_IGNORES,
  type ListCopyTreeOptions,
  listCopyTree,
} from './copy-tree.js';
export {
  FILES_ERROR_CODES,
  FilesError,
  type FilesErrorCode,
  type FilesWarning,
} from './errors.js';
export type { FileNode } from './file-node.js';
export { type HashAlgorithm, type HashFileOptions, hashFile, hashFileSync } from './hash-file.js';
export { compareUtf8 as comparePaths } from './internal/compare-paths.js';
export { ALWAYS_EXCLUDED_NAMES } from './internal/excluded-names.js';
export { toRootRelative } from './internal/paths.js';
export {
  diff,
  type FileChange,
  type FileChanges,
  type FileSnapshot,
  type FileStat,
  type SnapshotOptions,
  snapshot,
} from './snapshot.js';
export { TrackedPatterns, type TrackedPatternsSnapshot } from './tracked-patterns.js';
export { TreeWatcher, type TreeWatcherOptions, type WatchedChanges } from './tree-watcher.js';
export {
  type ListTreeOptions,
  type ResolveResult,
  type TreeListing,
  UnifiedFileResolver,
  type UnifiedFileResolverOptions,
} from './unified-file-resolver.js';
