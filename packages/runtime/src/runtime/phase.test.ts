import { CLIENT_COMMAND_TYPES, READ_ONLY_COMMAND_TYPES } from '@hankweave/types';
import { describe, expect, it } from 'vitest';
import { RUNTIME_PHASES, refusalOf } from './phase.js';

describe('refusalOf()', () => {
  it('refuses every command before the execution is open', () => {
    for (const phase of ['new', 'starting'] as const) {
      for (const command of CLIENT_COMMAND_TYPES) {
        expect(refusalOf(phase, command)).toBe('RUNTIME_NOT_STARTED');
      }
    }
  });

  it('accepts every command when idle (what a command then finds is its own check)', () => {
    for (const command of CLIENT_COMMAND_TYPES) expect(refusalOf('idle', command)).toBeUndefined();
  });

  it('refuses starting a codon or rolling back while driving, not stopping one', () => {
    expect(refusalOf('driving', 'codon.next')).toBe('RUNTIME_CODON_RUNNING');
    expect(refusalOf('driving', 'codon.start')).toBe('RUNTIME_CODON_RUNNING');
    expect(refusalOf('driving', 'codon.redo')).toBe('RUNTIME_CODON_RUNNING');
    expect(refusalOf('driving', 'rollback.toLastSuccess')).toBe('RUNTIME_CODON_RUNNING');
    expect(refusalOf('driving', 'codon.skip')).toBeUndefined();
    expect(refusalOf('driving', 'codon.forceStop')).toBeUndefined();
    expect(refusalOf('driving', 'server.shutdown')).toBeUndefined();
  });

  it('refuses every changing command during a rollback, and keeps reads and shutdown', () => {
    for (const command of CLIENT_COMMAND_TYPES) {
      const changes = !READ_ONLY_COMMAND_TYPES.includes(command) && !command.startsWith('server.');
      expect(refusalOf('rolling-back', command)).toBe(
        changes ? 'RUNTIME_ROLLBACK_IN_PROGRESS' : undefined,
      );
    }
  });

  it('refuses new work once stopping, and reads too once closed (the stores are closed)', () => {
    expect(refusalOf('stopping', 'codon.next')).toBe('RUNTIME_SHUTTING_DOWN');
    expect(refusalOf('stopping', 'codon.skip')).toBe('RUNTIME_SHUTTING_DOWN');
    expect(refusalOf('stopping', 'checkpoint.list')).toBeUndefined();
    expect(refusalOf('stopping', 'server.force_shutdown')).toBeUndefined();
    expect(refusalOf('closed', 'checkpoint.list')).toBe('RUNTIME_SHUTTING_DOWN');
    expect(refusalOf('closed', 'history.sync')).toBe('RUNTIME_SHUTTING_DOWN');
    expect(refusalOf('closed', 'ping')).toBeUndefined();
  });

  it('has an answer for every phase and command', () => {
    for (const phase of RUNTIME_PHASES) {
      for (const command of CLIENT_COMMAND_TYPES) {
        const refusal = refusalOf(phase, command);
        expect(refusal === undefined || refusal.startsWith('RUNTIME_')).toBe(true);
      }
    }
  });
});
