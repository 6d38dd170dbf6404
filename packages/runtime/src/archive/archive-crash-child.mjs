// Child of the archive kill test: runs one codon whose agent writes many files that
// archiveOnSuccess then moves, and prints ARCHIVING (synchronously, so the line is in the pipe)
// as soon as the first file (drafts/d0/f0.txt, first in order) lands in rigArchive. The parent
// SIGKILLs it there, mid-archive.
import { existsSync, mkdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FakeHarness } from '@hankweave/harness/testing';
import { createRuntime } from '../../dist/index.js';

const [root, executionDir, count] = process.argv.slice(2);
const runtime = createRuntime({
  hank: JSON.parse(readFileSync(new URL('./archive-crash-hank.json', import.meta.url), 'utf8')),
  hankDir: root,
  dataPath: join(root, 'data'),
  executionDir,
  harness: new FakeHarness({
    script: (start) => {
      for (let index = 0; index < Number(count); index++) {
        const dir = join(start.cwd, 'drafts', `d${index % 10}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `f${index}.txt`), `content of draft ${index}\n`.repeat(index % 7));
      }
      const watch = setInterval(() => {
        if (existsSync(join(executionDir, 'rigArchive/gen/drafts/d0/f0.txt'))) {
          clearInterval(watch);
          writeSync(1, 'ARCHIVING\n');
        }
      }, 0);
      return { scenario: { turns: [{ text: 'Done.' }] } };
    },
  }),
  autostart: true,
  headless: true,
});
await runtime.start();
await runtime.finished;
writeSync(1, 'FINISHED\n');
