#!/usr/bin/env node
// The committed entry of `hankweave-scripted-model`: it exists before any build, so installing
// the workspace links the bin without a warning. The server itself is dist/cli.js.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js'))
    throw error;
  process.stderr.write(
    'hankweave-scripted-model is not built yet (no dist/cli.js)\n→ Run `pnpm build` in the repository first.\n',
  );
  process.exitCode = 1;
}
