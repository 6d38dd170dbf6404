export { assertRepoMatchesGit } from './testing/assert-repo.js';
export {
  type NativeGitOptions,
  type NativeGitResult,
  nativeGitEnv,
  runNativeGit,
} from './testing/native-git.js';
