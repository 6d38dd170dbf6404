import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BusyIdleWatchdog } from './busy-idle-watchdog.js';

describe('BusyIdleWatchdog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once after the idle time without output', () => {
    const onIdle = vi.fn();
    const watchdog = new BusyIdleWatchdog(1000, 5000, onIdle);
    vi.advanceTimersByTime(900);
    watchdog.touch();
    vi.advanceTimersByTime(900);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(onIdle).toHaveBeenCalledTimes(1);
    watchdog.touch();
    vi.advanceTimersByTime(5000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('allows the busy floor while a tool runs, and the idle time again after it', () => {
    const onIdle = vi.fn();
    const watchdog = new BusyIdleWatchdog(1000, 5000, onIdle);
    watchdog.toolStarted('a');
    expect(watchdog.timeoutMs).toBe(5000);
    vi.advanceTimersByTime(4900);
    expect(onIdle).not.toHaveBeenCalled();
    watchdog.toolEnded('a');
    expect(watchdog.timeoutMs).toBe(1000);
    vi.advanceTimersByTime(1000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('never fires once stopped', () => {
    const onIdle = vi.fn();
    new BusyIdleWatchdog(1000, 5000, onIdle).stop();
    vi.advanceTimersByTime(10_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
