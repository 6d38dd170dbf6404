// ./testing entry: what tests and benchmarks of a fleet need (a throwaway Redis server).

export { type RedisServer, type StartRedisOptions, startRedis } from './testing/start-redis.js';
