// Public surface of @hankweave/remote: named exports only.

export {
  branchTtlFromEnv,
  DEFAULT_BRANCH_TTL_MS,
  DEFAULT_REMOTE_TIMEOUT_MS,
  remoteTimeoutFromEnv,
  repositoryCacheDir,
} from './cache-dir.js';
export { defaultCacheDir } from './default-cache-dir.js';
export { REMOTE_ERROR_CODES, RemoteError, type RemoteErrorCode } from './errors.js';
export {
  httpsEquivalent,
  isRemoteHankUrl,
  parseRemoteHankUrl,
  type RemoteHankSpec,
  stripCredentials,
} from './parse-url.js';
export {
  type ResolvedRefKind,
  type ResolvedRemoteHank,
  type ResolveRemoteHankOptions,
  resolveRemoteHank,
} from './resolve.js';
