// Built as dist/internals.js for this package's own benchmarks (bench/*.mjs), which measure the
// orchestrator from inside. Not in package.json's `exports`: nothing outside the package can
// import it, and it is not part of the API.

export { takeFingerprint } from './data-guard/data-fingerprint.js';
export { diffFingerprints } from './data-guard/fingerprint-diff.js';
export { orchestratorOf } from './runtime/create-runtime.js';
