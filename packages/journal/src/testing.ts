export {
  type ConformanceContext,
  collect,
  type JournalHarness,
  readText,
} from './testing/conformance-context.js';
export { describeJournalConformance } from './testing/journal-conformance.js';
export { infoEvent, sampleRun } from './testing/sample-events.js';
