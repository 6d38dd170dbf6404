export type { SentinelErrorCode } from './errors.js';
export { isSentinelError, SENTINEL_ERROR_CODES, SentinelError } from './errors.js';
export { builtInPrice as sentinelPrice } from './internal/pricing.js';
export type {
  PriceUsage,
  SentinelEmit,
  SentinelEventType,
  SentinelLogger,
  SentinelManagerOptions,
  SentinelUsage,
} from './options.js';
export type { FailedSentinel } from './sentinel-manager.js';
export { SentinelManager } from './sentinel-manager.js';
