export type { SentinelErrorCode } from './errors.js';
export { SENTINEL_ERROR_CODES, SentinelError } from './errors.js';
export type {
  SentinelEmit,
  SentinelEventType,
  SentinelLogger,
  SentinelManagerOptions,
} from './options.js';
export type { FailedSentinel } from './sentinel-manager.js';
export { SentinelManager } from './sentinel-manager.js';
export type {
  SentinelApi,
  SentinelProvider,
  SentinelProviderOptions,
} from './sentinel-provider.js';
export { resolveSentinelProvider, SENTINEL_APIS } from './sentinel-provider.js';
