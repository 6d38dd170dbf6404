// Child of registry-concurrency.int.test.ts: waits at a shared start barrier (a file the parent
// creates once every child is loaded), then registers its own session and changes it several
// times (registry mode) or appends one completion record (completions mode). Imports the build.
import { existsSync, writeSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { appendCompletion, loopSessionKey, SessionRegistry } from '../../dist/index.js';

const [dir, barrier, index, mode] = process.argv.slice(2);
const say = (line) => writeSync(1, `${line}\n`);

say('ready');
while (!existsSync(barrier)) await delay(2);

const session = `child-${index}`;
if (mode === 'completions') {
  await appendCompletion(dir, {
    session,
    type: 'loop',
    status: 'completed',
    at: new Date().toISOString(),
    iterations: Number(index),
  });
} else {
  const registry = new SessionRegistry(dir);
  const key = loopSessionKey(session);
  await registry.register(key, {
    type: 'loop',
    loop_type: 'work',
    started_at: new Date().toISOString(),
    project_path: dir,
    status: 'running',
    pid: process.pid,
  });
  for (let step = 1; step <= 3; step++) await registry.patch(key, { note: `step ${step}` });
  await registry.setStatus(key, 'killed');
  await registry.setStatus(key, Number(index) % 2 === 0 ? 'completed' : 'killed', {
    note: `final ${index}`,
  });
}
say('done');
