import { describe, expect, it } from 'vitest';
import { JobControl } from './job-control.js';

describe('JobControl', () => {
  describe('stop()', () => {
    it('calls the listener once for the first request, and again only to force', () => {
      const control = new JobControl();
      const calls: boolean[] = [];
      control.onStop((force) => calls.push(force));
      control.stop('shutdown');
      control.stop('shutdown');
      control.stop('shutdown', '', { force: true });
      expect(calls).toEqual([false, true]);
    });

    it('keeps the strongest cause whatever the order', () => {
      const control = new JobControl();
      control.stop('cancel', 'asked');
      control.stop('shutdown');
      expect(control.cause).toBe('cancel');
      control.stop('lock-lost');
      expect(control.cause).toBe('lock-lost');
    });

    it('tells a listener set later at once', () => {
      const control = new JobControl();
      control.stop('cancel');
      let told = false;
      control.onStop(() => {
        told = true;
      });
      expect(told).toBe(true);
    });
  });
});
