import { describe, expect, it } from 'vitest';
import type { CheckpointWire } from '../api/types.js';
import { describeAction } from './describe-action.js';

const context = {
  hankName: 'hello-hank',
  executionId: '1736000000000-x7a2',
  runningCodon: { name: 'Explore', codonId: 'explore' },
};
const checkpoint: CheckpointWire = {
  sha: '4d48bad0123456789abcdef',
  type: 'completed',
  codonId: 'explore',
  runId: 'run-1',
  time: '2026-01-01T00:00:00Z',
  message: 'explore completed',
};

describe('describeAction()', () => {
  it('names the codon a skip stops and says it ends as skipped', () => {
    const text = describeAction('skip', context);
    expect(text.title).toContain('Explore');
    expect(text.consequences.join(' ')).toContain('skipped');
  });
  it('aims a skip or force-stop at the codon it names, so a later codon is never stopped', () => {
    expect(describeAction('skip', context).target).toBe('explore');
    expect(describeAction('stop', context).target).toBe('explore');
  });
  it('says a force-stop marks the codon failed', () => {
    const text = describeAction('stop', context);
    expect(text.consequences.join(' ')).toContain('failed');
    expect(text.destructive).toBe(true);
  });
  it('does not mark next as destructive', () => {
    expect(describeAction('next', context).destructive).toBe(false);
  });
  it('targets the full sha of the chosen checkpoint and names it short', () => {
    const text = describeAction('rollback', { ...context, checkpoint });
    expect(text.target).toBe(checkpoint.sha);
    expect(text.title).toContain('4d48bad');
    expect(text.consequences.join(' ')).toContain('codon explore');
  });
  it('gives the command that continues the execution from its directory', () => {
    const text = describeAction('rollback', { ...context, executionDir: '/base/x', checkpoint });
    expect(text.consequences.join(' ')).toContain('hankweave --execution /base/x');
  });
  it('targets last-success when no checkpoint was chosen', () => {
    const text = describeAction('rollback', { hankName: 'h', executionId: 'e' });
    expect(text.target).toBe('last-success');
    expect(text.title).toContain('last success');
  });
  it('speaks of "the running codon" when it is not known', () => {
    const text = describeAction('skip', { hankName: 'h', executionId: 'e' });
    expect(text.title).toBe('Skip the running codon?');
    expect(text.target).toBeUndefined();
  });
});
