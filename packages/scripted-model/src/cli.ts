#!/usr/bin/env node
import { runCli } from './internal/run-cli.js';

// The entry of `hankweave-scripted-model`: serve until SIGINT/SIGTERM, then close cleanly.
const outcome = await runCli(process.argv.slice(2), process);
if ('exitCode' in outcome) {
  process.exitCode = outcome.exitCode;
} else {
  const stop = () => {
    outcome.model.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
