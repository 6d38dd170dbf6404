import { describe, expect, it } from 'vitest';
import { translateRuntimeMessage } from './runtime-words.js';

const PROTOCOL = /server\.force_shutdown|codon\.next|codon\.redo/;

describe('translateRuntimeMessage()', () => {
  it('turns the shutdown hint into Ctrl-C', () => {
    const text = translateRuntimeMessage(
      'Shutting down: waiting for agent process to exit. Send server.force_shutdown to force quit.',
    );
    expect(text).toBe('Shutting down: waiting for agent process to exit. Ctrl-C again to force.');
  });

  it('says how to continue with a key or a command line naming the execution', () => {
    const text = translateRuntimeMessage("Codon observe finished. Use 'codon.next' to continue.", {
      executionDir: '/tmp/exec one',
    });
    expect(text).toMatch(
      /^Codon observe finished\. Continue with \[n\], or later with `.*hankweave --execution '\/tmp\/exec one'`\.$/,
    );
  });

  it('leaves no protocol word in any message the runtime sends the CLI', () => {
    for (const message of [
      "Codon a failed (boom). Use 'codon.redo' to retry it, or roll back.",
      "Rollback completed. Use 'codon.next' to continue.",
      'No checkpoints found in execution history: nothing has been checkpointed yet, so there is nothing to roll back to. Run a codon first (codon.next).',
      'No codon has run yet; use codon.next',
      'Send server.force_shutdown, or codon.redo',
    ]) {
      expect(translateRuntimeMessage(message)).not.toMatch(PROTOCOL);
    }
  });

  it('returns other messages unchanged', () => {
    expect(translateRuntimeMessage('Execution /x ready (run r1)')).toBe(
      'Execution /x ready (run r1)',
    );
  });
});
