import { describe, expect, it } from 'vitest';
import {
  CLIENT_COMMAND_TYPES,
  clientCommandSchema,
  handshakeSchema,
  READ_ONLY_COMMAND_TYPES,
} from '../index.js';

describe('clientCommandSchema', () => {
  it('parses every command of the protocol', () => {
    expect(CLIENT_COMMAND_TYPES).toHaveLength(14);
    const parsed = clientCommandSchema.parse({
      id: 'c1',
      type: 'rollback.toCodon',
      data: { codonId: 'review#1', checkpointType: 'end', autoRestart: true },
    });
    expect(parsed.type).toBe('rollback.toCodon');
  });

  it('rejects a misspelt payload field with its path', () => {
    const result = clientCommandSchema.safeParse({
      id: 'c',
      type: 'codon.start',
      data: { codonID: 'a' },
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain('data.codonId');
  });

  it('takes the codon a skip or force-stop is aimed at, and what the original sends for a skip', () => {
    const accepts = (type: string, data?: unknown) =>
      clientCommandSchema.safeParse({ id: 'c', type, ...(data !== undefined && { data }) }).success;
    expect(accepts('codon.skip')).toBe(true);
    expect(accepts('codon.skip', null)).toBe(true);
    expect(accepts('codon.skip', { codonId: 'a', note: 'ignored' })).toBe(true);
    expect(accepts('codon.skip', { codonId: '' })).toBe(false);
    expect(accepts('codon.forceStop', { reason: 'r', codonId: 'a' })).toBe(true);
    expect(accepts('codon.forceStop', { codonID: 'a' })).toBe(false);
  });

  it('keeps shutdown out of the read-only commands', () => {
    expect(READ_ONLY_COMMAND_TYPES).not.toContain('server.shutdown');
    expect(READ_ONLY_COMMAND_TYPES).not.toContain('server.force_shutdown');
  });

  it('lists as read-only exactly the reads of reference §3.1, not ping.broadcast', () => {
    expect([...READ_ONLY_COMMAND_TYPES].sort()).toEqual([
      'checkpoint.list',
      'history.sync',
      'ping',
    ]);
  });
});

describe('handshakeSchema', () => {
  it('defaults sendPreviousEvents to false and rejects unknown modes', () => {
    expect(
      handshakeSchema.parse({ type: 'handshake', data: { mode: 'readonly' } }).data
        .sendPreviousEvents,
    ).toBe(false);
    expect(handshakeSchema.safeParse({ type: 'handshake', data: { mode: 'admin' } }).success).toBe(
      false,
    );
  });
});
