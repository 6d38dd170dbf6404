// `@hankweave/files/testing`: what a consumer's property tests of watched scans can reuse.
export { applyFileOp, fileOp, type Op as FileOp } from './testing/file-ops.js';
export { countInotifyWatches } from './testing/inotify-watches.js';
