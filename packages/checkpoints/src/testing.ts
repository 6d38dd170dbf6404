export { assertRepoMatchesGit } from './testing/assert-repo.js';
export { createFaultyFs, type FaultPlan, type FaultyFs } from './testing/faulty-fs.js';
export {
  type NativeGitOptions,
  type NativeGitResult,
  nativeGitEnv,
  runNativeGit,
} from './testing/native-git.js';
