import type { CheckpointEngine } from '../checkpoint-engine.js';
import { runNativeGit } from './native-git.js';

/**
 * Checks an engine's repository with native git as the referee and throws a descriptive Error
 * on the first disagreement:
 * - `git fsck --full --strict` reports nothing;
 * - every branch tip and HEAD agree with the engine;
 * - `git log --all` holds exactly the engine's checkpoints plus the initial commit;
 * - for each checkpoint, `git ls-tree -r` lists exactly the engine's files (path, mode, blob).
 */
export async function assertRepoMatchesGit(engine: CheckpointEngine): Promise<void> {
  const exec = engine.executionDir;
  const fsck = runNativeGit(exec, ['fsck', '--full', '--strict', '--no-dangling'], {
    allowFailure: true,
  });
  if (
    fsck.status !== 0 ||
    fsck.stdout.trim() !== '' ||
    /error|warning|missing|broken/i.test(fsck.stderr)
  ) {
    throw new Error(`git fsck failed (${fsck.status}): ${fsck.stdout}${fsck.stderr}`);
  }
  const head = await engine.head();
  const gitHead = runNativeGit(exec, ['rev-parse', 'HEAD']).stdout.trim();
  if (gitHead !== head.sha) throw new Error(`HEAD: git ${gitHead}, engine ${head.sha}`);
  const symbolic = runNativeGit(exec, ['symbolic-ref', '-q', '--short', 'HEAD'], {
    allowFailure: true,
  }).stdout.trim();
  if ((symbolic || null) !== head.branch)
    throw new Error(`HEAD branch: git ${symbolic || 'detached'}, engine ${head.branch}`);

  const checkpoints = await engine.list();
  const logged = runNativeGit(exec, ['log', '--all', '--format=%H'])
    .stdout.trim()
    .split('\n')
    .sort();
  const expected = [...checkpoints.map((info) => info.sha), engine.initialCheckpoint].sort();
  if (logged.join() !== expected.join()) {
    throw new Error(
      `git log --all has ${logged.length} commits, the engine lists ${expected.length}`,
    );
  }
  for (const info of checkpoints) {
    for (const branch of info.branches) {
      const contains = runNativeGit(exec, ['merge-base', '--is-ancestor', info.sha, branch], {
        allowFailure: true,
      });
      if (contains.status !== 0)
        throw new Error(`${info.sha} is not on ${branch} according to git`);
    }
    const gitFiles = runNativeGit(exec, ['ls-tree', '-r', '-z', info.sha])
      .stdout.split('\0')
      .filter(Boolean)
      .map((line) => {
        const tab = line.indexOf('\t');
        const path = line.slice(tab + 1);
        const [mode, , oid] = line.slice(0, tab).split(' ');
        return `${mode} ${oid} ${path}`;
      });
    const ours = (await engine.files(info.sha)).map(
      (file) => `${file.mode} ${file.oid} ${file.path}`,
    );
    if (gitFiles.join('\n') !== ours.join('\n')) {
      throw new Error(
        `tree of ${info.sha}: git ls-tree -r and the engine disagree\n${gitFiles.join('\n')}\n---\n${ours.join('\n')}`,
      );
    }
  }
}
