// `@hankweave/files/testing`: what a consumer's property tests of watched scans can reuse.
export {
  applyFileOp,
  DIRS as FILE_OP_DIRS,
  FILES as FILE_OP_FILES,
  fileOp,
  type Op as FileOp,
  PATHS as FILE_OP_PATHS,
} from './testing/file-ops.js';
