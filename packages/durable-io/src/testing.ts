// ./testing entry: fault injection, temporary directories and crash-test children.

export {
  createFaultyFs,
  type Fault,
  type FaultyFs,
  type FaultyFsOptions,
  type FsCall,
  type FsOperation,
  HANDLE_OPERATIONS,
} from './testing/faulty-fs.js';
export {
  atDepth,
  DEFAULT_FUZZ_SEED,
  type FuzzSettings,
  fuzzRuns,
  fuzzSettings,
  fuzzTimeout,
  TEST_DEPTH_ENV,
  type TestDepth,
  testDepth,
} from './testing/fuzz-settings.js';
export {
  type ChildExit,
  type ChildUnderTest,
  type SpawnChildOptions,
  spawnChild,
} from './testing/kill-child.js';
export {
  checkReadmeApi,
  compareReadmeApi,
  type ReadmeApiEntry,
  type ReadmeApiModule,
  type ReadmeApiReport,
  typeExportNames,
} from './testing/readme-api.js';
export { type QuickStartRun, runReadmeQuickStart } from './testing/readme-quick-start.js';
export { seededRandom } from './testing/seeded-random.js';
export {
  cleanupTempDirs,
  makeTempDir,
  makeTempDirSync,
  type TempDir,
  useFixture,
  withPrivateTmpdir,
} from './testing/temp-dir.js';
export {
  freeLoopbackPort,
  type ThrowawayServerOptions,
  throwawayServerStop,
} from './testing/throwaway-server.js';
