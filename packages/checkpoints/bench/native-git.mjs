// Native git doing the same work as the engine, on the same work tree with its own git dir.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export class NativeGit {
  constructor(gitDir, workTree, home) {
    mkdirSync(home, { recursive: true });
    this.env = {
      PATH: process.env.PATH,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: home,
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'bench@example.invalid',
      GIT_COMMITTER_NAME: 'Bench',
      GIT_COMMITTER_EMAIL: 'bench@example.invalid',
    };
    this.workTree = workTree;
  }

  git(...args) {
    const result = spawnSync('git', ['-c', 'gc.auto=0', ...args], {
      cwd: this.workTree,
      env: this.env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  }

  init() {
    this.git('init', '-q', '--initial-branch', 'main');
    this.git('commit', '-q', '--allow-empty', '-m', 'Initial checkpoint setup');
  }

  /** What the original runtime's checkpoint boils down to, minus its batching: add all, commit. */
  checkpoint(message) {
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '--no-verify', '-m', message);
  }

  head() {
    return this.git('rev-parse', 'HEAD').trim();
  }

  branch(name) {
    this.git('switch', '-q', '-c', name);
  }

  restore(sha) {
    this.git('checkout', '-q', '-f', '--detach', sha);
  }

  list() {
    return this.git('log', '--all', '--format=%H%x00%s%x00%D').split('\n').length;
  }

  resolve(prefix) {
    return this.git('rev-parse', '--verify', '--quiet', `${prefix}^{commit}`).trim();
  }
}
