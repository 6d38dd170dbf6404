import { describe, expect, it } from 'vitest';
import { bubblewrapArgs, orderMounts } from './bubblewrap-args.js';

describe('orderMounts()', () => {
  it('mounts shallower paths first, so a deeper grant or protection wins', () => {
    expect(
      orderMounts([
        { path: '/x/exec/agentRoot/read_only_data_source', mode: 'ro' },
        { path: '/x/exec/agentRoot', mode: 'rw' },
        { path: '/x', mode: 'ro' },
      ]).map((mount) => mount.path),
    ).toEqual(['/x', '/x/exec/agentRoot', '/x/exec/agentRoot/read_only_data_source']);
  });

  it('keeps read-only when one path is named both ways', () => {
    expect(
      orderMounts([
        { path: '/data', mode: 'ro' },
        { path: '/data', mode: 'rw' },
      ]),
    ).toEqual([{ path: '/data', mode: 'ro' }]);
  });
});

describe('bubblewrapArgs()', () => {
  it('drops every capability, unshares pids and dies with its parent', () => {
    const args = bubblewrapArgs({
      mounts: [{ path: '/work/agentRoot', mode: 'rw' }],
      network: 'host',
      cwd: '/work/agentRoot',
      command: 'claude',
      args: ['-p'],
    });
    expect(args).toEqual(
      expect.arrayContaining(['--die-with-parent', '--unshare-pid', '--new-session']),
    );
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args).not.toContain('--unshare-net');
    expect(args.slice(-4)).toEqual(['/work/agentRoot', '--', 'claude', '-p']);
    // The root read-only first, the writable bind after it.
    expect(args.indexOf('/')).toBeLessThan(args.indexOf('--bind'));
  });

  it('unshares the network when asked for none', () => {
    expect(
      bubblewrapArgs({ mounts: [], network: 'none', cwd: '/', command: 'true', args: [] }),
    ).toContain('--unshare-net');
  });
});
