import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { sleep } from '@hankweave/durable-io';
import { cleanupTempDirs, makeTempDir } from '@hankweave/durable-io/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentProcess } from '../adapter/agent-process.js';
import { detectSandbox } from './detect-sandbox.js';
import { sandboxCommand } from './sandbox-command.js';
import type { SandboxPolicy } from './sandbox-policy.js';

// Real bubblewrap, real processes, real files: each case attacks one promise of the sandbox and
// checks the result on the host with ordinary file reads. `.ci/run` installs bubblewrap; without it
// these cases fail and say so (containment is not optional in CI).

let bwrap: string;

beforeAll(async () => {
  const found = await detectSandbox();
  if (!found.available) throw new Error(`No sandbox: ${found.reason}; ${found.hint}`);
  bwrap = found.path;
});

afterEach(cleanupTempDirs);

interface World {
  root: string;
  agentRoot: string;
  data: string;
  policy: SandboxPolicy;
}

async function world(): Promise<World> {
  const dir = await makeTempDir('hw-sandbox-');
  const agentRoot = join(dir.path, 'exec', 'agentRoot');
  const data = join(dir.path, 'user-data');
  mkdirSync(agentRoot, { recursive: true });
  mkdirSync(data);
  writeFileSync(join(data, 'keep.txt'), 'precious');
  symlinkSync(data, join(agentRoot, 'read_only_data_source'));
  return {
    root: dir.path,
    agentRoot,
    data,
    policy: {
      bubblewrap: bwrap,
      writable: [agentRoot],
      readOnly: [join(agentRoot, 'read_only_data_source')],
      readable: [join(dir.path, 'exec')],
    },
  };
}

/** Runs `script` with sh in the sandbox; resolves with its exit code and output. */
function runSh(
  policy: SandboxPolicy,
  cwd: string,
  script: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const line = sandboxCommand(policy, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(line.command, line.args, { env: line.env });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('sandboxCommand() with bubblewrap', () => {
  it('lets the command write its writable directory and nothing else', async () => {
    const w = await world();
    const result = await runSh(
      w.policy,
      w.agentRoot,
      `echo made > made.txt; echo x > ${w.data}/keep.txt; echo rc=$?; rm -rf ${w.data}/*; echo y > read_only_data_source/new.txt; echo z > ${w.root}/outside.txt`,
    );
    expect(readFileSync(join(w.agentRoot, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(join(w.data, 'keep.txt'), 'utf8')).toBe('precious');
    expect(existsSync(join(w.data, 'new.txt'))).toBe(false);
    expect(existsSync(join(w.root, 'outside.txt'))).toBe(false);
    expect(result.stdout).toMatch(/rc=[1-9]/);
    expect(result.stderr).toMatch(/Read-only file system/);
  });

  it('keeps a data copy inside the writable directory read-only', async () => {
    const w = await world();
    const copy = join(w.agentRoot, 'copy_of_data');
    mkdirSync(copy);
    writeFileSync(join(copy, 'keep.txt'), 'precious');
    await runSh(
      { ...w.policy, readOnly: [copy] },
      w.agentRoot,
      'echo x > copy_of_data/keep.txt; rm -f copy_of_data/keep.txt; mv copy_of_data moved; chmod 000 copy_of_data',
    );
    expect(readFileSync(join(copy, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('does not let a symlink the command makes lead out of the sandbox', async () => {
    const w = await world();
    await runSh(w.policy, w.agentRoot, `ln -s ${w.data} mine; echo x > mine/keep.txt`);
    expect(readFileSync(join(w.data, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('ends a setsid nohup background process with the command', async () => {
    const w = await world();
    const started = Date.now();
    const result = await runSh(
      w.policy,
      w.agentRoot,
      `setsid nohup sh -c 'sleep 1; echo late > ${w.agentRoot}/late.txt' >/dev/null 2>&1 & echo started`,
    );
    expect(result.stdout).toContain('started');
    expect(Date.now() - started).toBeLessThan(1000);
    await sleep(1800);
    expect(existsSync(join(w.agentRoot, 'late.txt'))).toBe(false);
  });

  it('gives a private /tmp and keeps readable paths under the host /tmp visible', async () => {
    const w = await world();
    const result = await runSh(
      w.policy,
      w.agentRoot,
      `echo scratch > /tmp/scratch.txt && cat /tmp/scratch.txt; echo TMPDIR=$TMPDIR; cat read_only_data_source/keep.txt; ls ${w.root}/exec`,
    );
    expect(result.stdout).toContain('scratch');
    expect(result.stdout).toContain('TMPDIR=/tmp');
    expect(result.stdout).toContain('precious');
    expect(result.stdout).toContain('agentRoot');
    expect(existsSync('/tmp/scratch.txt')).toBe(false);
  });

  it('drops capabilities, so root inside cannot remount the root writable', async () => {
    const w = await world();
    const result = await runSh(
      w.policy,
      w.agentRoot,
      `mount -o remount,rw / 2>/dev/null && echo REMOUNTED; echo x > ${w.data}/keep.txt 2>/dev/null; grep CapEff /proc/self/status`,
    );
    expect(result.stdout).not.toContain('REMOUNTED');
    expect(result.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(readFileSync(join(w.data, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('hides the host processes: only the sandbox shows in /proc', async () => {
    const w = await world();
    const result = await runSh(
      w.policy,
      w.agentRoot,
      `ls /proc | grep -c '^[0-9]'; kill -0 ${process.pid} 2>/dev/null && echo SEES-HOST`,
    );
    expect(Number(result.stdout.trim().split('\n')[0])).toBeLessThan(6);
    expect(result.stdout).not.toContain('SEES-HOST');
  });

  describe('network', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_request, response) => response.end('model says hi'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
      return () => new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const fetchScript = () =>
      `node -e "fetch('${url}').then(r=>r.text()).then(t=>console.log('GOT',t),e=>console.log('FAILED',e.cause?.code))"`;

    it('reaches a server on the host loopback by default (the scripted model)', async () => {
      const w = await world();
      const result = await runSh(w.policy, w.agentRoot, fetchScript());
      expect(result.stdout).toContain('GOT model says hi');
    });

    it('reaches nothing with network none', async () => {
      const w = await world();
      const result = await runSh({ ...w.policy, network: 'none' }, w.agentRoot, fetchScript());
      expect(result.stdout).toContain('FAILED');
    });
  });
});

describe('AgentProcess in a sandbox', () => {
  it('asks the command inside to stop with SIGTERM, and then ends the whole sandbox', async () => {
    const w = await world();
    // Forty detached sleeps, named so that nothing else on the host matches: the kernel kills
    // them as the sandbox's init exits, after bubblewrap itself has exited.
    const tag = `60.${process.pid}${Date.now() % 1000}`;
    const lines: string[] = [];
    const agent = await AgentProcess.spawn({
      command: '/bin/sh',
      args: [
        '-c',
        `trap 'echo got-term > ${w.agentRoot}/term.txt; exit 143' TERM; for i in $(seq 40); do (setsid sleep ${tag} &); done; echo ready; while :; do sleep 0.1; done`,
      ],
      cwd: w.agentRoot,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdin: '',
      stdout: (line) => lines.push(line),
      stderr: () => undefined,
      sandbox: w.policy,
    });
    for (let i = 0; i < 100 && !lines.includes('ready'); i++) await sleep(50);
    const exit = await agent.terminate(3000);
    expect(exit).toEqual({ exitCode: 143, signal: 'SIGTERM' });
    expect(readFileSync(join(w.agentRoot, 'term.txt'), 'utf8')).toBe('got-term\n');
    // No sleep of this sandbox is left on the host once the agent is said to have exited.
    const stillThere = (
      await new Promise<string>((resolve) => {
        const ps = spawn('ps', ['-eo', 'pid,ppid,args']);
        let text = '';
        ps.stdout.on('data', (chunk) => {
          text += chunk;
        });
        ps.on('close', () => resolve(text));
      })
    )
      .split('\n')
      .filter((line) => line.includes(`sleep ${tag}`) && !line.includes('ps -eo'));
    expect(stillThere).toEqual([]);
  });
});

describe('detectSandbox()', () => {
  it('finds bubblewrap and its version', async () => {
    expect(await detectSandbox()).toMatchObject({ available: true, kind: 'bubblewrap' });
  });

  it('says what to install when bwrap is not on PATH', async () => {
    expect(await detectSandbox({ env: { PATH: '/nonexistent' } })).toMatchObject({
      available: false,
      reason: expect.stringContaining('not installed'),
      hint: expect.stringContaining('apt-get install bubblewrap'),
    });
  });

  it('refuses clearly on a platform without a sandbox', async () => {
    expect(await detectSandbox({ platform: 'darwin' })).toMatchObject({
      available: false,
      reason: expect.stringContaining('darwin'),
    });
  });
});
