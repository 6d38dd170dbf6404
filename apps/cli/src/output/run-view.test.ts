import { describe, expect, it } from 'vitest';
import type { CliEvent } from './describe-event.js';
import { heartbeatInterval, PlainView } from './run-view.js';
import type { Terminal } from './terminal.js';

const plain = (text: string) => text;

/** A terminal that keeps what is printed, stdout and stderr apart. */
function recordingTerminal() {
  const lines = { out: [] as string[], err: [] as string[] };
  const terminal: Terminal = {
    isTTY: false,
    color: false,
    columns: 120,
    out: (line = '') => void lines.out.push(line),
    err: (line = '') => void lines.err.push(line),
    write: (text) => void lines.out.push(text),
    style: { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain },
  };
  return { terminal, ...lines };
}

const event = (type: string, data: unknown): CliEvent =>
  ({ id: 'evt_1', type, timestamp: new Date().toISOString(), data }) as CliEvent;

const warning = (message: string) => event('error', { message, fatal: false, severity: 'warning' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PlainView', () => {
  describe('warnings', () => {
    it('prints a warning once when it is both logged and journaled', () => {
      const recorded = recordingTerminal();
      const view = new PlainView(recorded.terminal, 0);
      view.log('warn', 'Rig setup operation failed but continuing');
      view.onEvent(warning('Rig setup operation failed but continuing'));
      view.log('warn', 'Rig setup operation failed but continuing');
      expect([...recorded.err, ...recorded.out]).toEqual([
        '! Rig setup operation failed but continuing',
      ]);
    });

    it('prints a journaled warning (no log) once, and every error', () => {
      const recorded = recordingTerminal();
      const view = new PlainView(recorded.terminal, 0);
      view.onEvent(warning('state.json was repaired'));
      view.onEvent(warning('state.json was repaired'));
      view.log('error', 'boom');
      view.log('error', 'boom');
      expect(recorded.out).toHaveLength(1);
      expect(recorded.out[0]).toContain('error (warning): state.json was repaired');
      expect(recorded.err).toEqual(['✗ boom', '✗ boom']);
    });
  });

  describe('heartbeat', () => {
    const toolUse = event('assistant.action', {
      codonId: 'slow',
      action: 'tool_use',
      content: '',
      toolName: 'Bash',
      toolUseId: 'tu1',
      toolInput: { command: 'sleep 60' },
    });
    const toolResult = event('tool.result', {
      codonId: 'slow',
      toolUseId: 'tu1',
      toolName: 'Bash',
      result: '',
      truncated: false,
      originalLength: 0,
      executionTimeMs: 60_000,
      isError: false,
    });

    it('says which tool call is still running after a quiet interval, and stops when it ends', async () => {
      const recorded = recordingTerminal();
      const view = new PlainView(recorded.terminal, 60);
      view.started();
      try {
        view.onEvent(toolUse);
        await sleep(250);
        const beats = recorded.out.filter((line) => line.includes('still running'));
        expect(beats.length).toBeGreaterThanOrEqual(1);
        expect(beats[0]).toMatch(/ slow +still running: Bash `sleep 60` \(0s\)$/);
        view.onEvent(toolResult);
        const after = recorded.out.length;
        await sleep(200);
        expect(recorded.out.length).toBe(after);
      } finally {
        view.stop();
      }
    });

    it('stays quiet while other output keeps coming, and when turned off', async () => {
      const recorded = recordingTerminal();
      const view = new PlainView(recorded.terminal, 150);
      view.started();
      try {
        view.onEvent(toolUse);
        for (let index = 0; index < 6; index++) {
          await sleep(40);
          view.log('info', `line ${index}`);
        }
        expect(recorded.out.some((line) => line.includes('still running'))).toBe(false);
      } finally {
        view.stop();
      }
      const silent = recordingTerminal();
      const off = new PlainView(silent.terminal, 0);
      off.started();
      off.onEvent(toolUse);
      await sleep(100);
      off.stop();
      expect(silent.out.filter((line) => line.includes('still running'))).toEqual([]);
    });
  });
});

describe('heartbeatInterval()', () => {
  it('reads HANKWEAVE_HEARTBEAT_MS, defaulting to 30 s', () => {
    expect(heartbeatInterval({})).toBe(30_000);
    expect(heartbeatInterval({ HANKWEAVE_HEARTBEAT_MS: '500' })).toBe(500);
    expect(heartbeatInterval({ HANKWEAVE_HEARTBEAT_MS: '0' })).toBe(0);
    expect(heartbeatInterval({ HANKWEAVE_HEARTBEAT_MS: 'soon' })).toBe(30_000);
  });
});
