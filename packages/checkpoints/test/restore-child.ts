// Child process of restore-in-place.int.test.ts: restores one checkpoint of an execution and
// prints the outcome as one JSON line. The test runs it inside bubblewrap, where a file is
// bind-mounted over a tracked path, a mount the test's own process cannot make.
import { writeSync } from 'node:fs';
import { CheckpointEngine } from '../src/index.js';

const [executionDir, sha] = process.argv.slice(2) as [string, string];
const engine = await CheckpointEngine.open({ executionDir, fsync: false });
try {
  const result = await engine.restore(sha);
  writeSync(1, `${JSON.stringify({ ok: true, written: result.written })}\n`);
} catch (error) {
  const { code, message } = error as { code?: string; message?: string };
  writeSync(1, `${JSON.stringify({ ok: false, code, message })}\n`);
} finally {
  await engine.close();
}
