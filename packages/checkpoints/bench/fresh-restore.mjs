// One restore from a new process, as `hankweave rollback` or crash recovery does it: open the
// engine (its index read from disk), restore `sha` without a hint, close. Run by
// checkpoints.bench.mjs; prints the milliseconds from open to restored (Node's start-up and the
// engine's import, ~0.3-0.5 s here whatever the tree, are left out: the CLI pays its own).
// Usage: node bench/fresh-restore.mjs <engine index.js URL> <executionDir> <sha>
const [engineUrl, executionDir, sha] = process.argv.slice(2);
const { CheckpointEngine } = await import(engineUrl);
const started = performance.now();
const engine = await CheckpointEngine.open({ executionDir });
await engine.restore(sha, {});
const ms = performance.now() - started;
await engine.close();
process.stdout.write(`${ms}\n`);
