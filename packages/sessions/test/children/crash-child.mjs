// Child of registry-crash.int.test.ts: registers one session normally, then starts a second
// update whose rename of the registry kills this process (SIGKILL, no clean-up runs): the lock
// directory and the written temp file stay behind, the rename never happens. Imports the build.
import { writeSync } from 'node:fs';
import { nodeFs } from '@hankweave/durable-io';
import { SessionRegistry } from '../../dist/index.js';

const [dir, staleMs] = process.argv.slice(2);
const say = (line) => writeSync(1, `${line}\n`);
const entry = (status) => ({
  type: 'loop',
  started_at: '2025-01-10T10:00:00Z',
  project_path: dir,
  status,
});

const options = { lockStaleMs: Number(staleMs) };
await new SessionRegistry(dir, options).register('loop-before', entry('running'));
say('registered');

const dying = {
  ...nodeFs,
  rename: async (from, to) => {
    if (to.endsWith('loop-sessions.json')) {
      say('dying');
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => {}); // never resumes: the signal ends the process
    }
    return nodeFs.rename(from, to);
  },
};
await new SessionRegistry(dir, { ...options, fs: dying }).setStatus('loop-before', 'killed');
say('survived'); // never printed
