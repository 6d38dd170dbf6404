import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BusyFloorAllowance } from './busy-floor-allowance.js';
import { IdleWatchdog } from './idle-watchdog.js';

describe('IdleWatchdog', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once after a fixed idle time without a touch', () => {
    const onIdle = vi.fn();
    const watchdog = new IdleWatchdog(1000, onIdle);
    vi.advanceTimersByTime(900);
    watchdog.touch();
    vi.advanceTimersByTime(900);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(onIdle).toHaveBeenCalledTimes(1);
    watchdog.touch();
    vi.advanceTimersByTime(5000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('asks the allowance at every restart, so the silence allowed follows what the agent does', () => {
    const onIdle = vi.fn();
    let allowed = 1000;
    const watchdog = new IdleWatchdog(() => allowed, onIdle);
    expect(watchdog.timeoutMs).toBe(1000);
    allowed = 5000;
    // The running countdown keeps what was allowed when it started...
    vi.advanceTimersByTime(900);
    expect(onIdle).not.toHaveBeenCalled();
    // ...a touch restarts it with the allowance of now.
    watchdog.touch();
    expect(watchdog.timeoutMs).toBe(5000);
    vi.advanceTimersByTime(4900);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('never fires once stopped', () => {
    const onIdle = vi.fn();
    const watchdog = new IdleWatchdog(() => 1000, onIdle);
    watchdog.stop();
    watchdog.touch();
    vi.advanceTimersByTime(10_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});

// What Pi's BusyIdleWatchdog did, now the busy-floor allowance plugged into the one watchdog. The
// translation reports a tool before the watchdog is touched for the same line (ProcessSession).
describe('IdleWatchdog with a BusyFloorAllowance', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once after the idle time without output', () => {
    const onIdle = vi.fn();
    const watchdog = new IdleWatchdog(new BusyFloorAllowance(5000).for(1000), onIdle);
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
    const busy = new BusyFloorAllowance(5000);
    const watchdog = new IdleWatchdog(busy.for(1000), onIdle);
    busy.toolStarted('a');
    watchdog.touch();
    expect(watchdog.timeoutMs).toBe(5000);
    vi.advanceTimersByTime(4900);
    expect(onIdle).not.toHaveBeenCalled();
    busy.toolEnded('a');
    watchdog.touch();
    expect(watchdog.timeoutMs).toBe(1000);
    vi.advanceTimersByTime(1000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('keeps the floor until the last of overlapping tools ends, and never lowers the idle time', () => {
    const busy = new BusyFloorAllowance(5000);
    busy.toolStarted('a');
    busy.toolStarted('b');
    busy.toolEnded('a');
    expect(busy.for(1000)()).toBe(5000);
    expect(busy.for(9000)()).toBe(9000);
    busy.toolEnded('b');
    expect(busy.for(1000)()).toBe(1000);
  });

  it('never fires once stopped', () => {
    const onIdle = vi.fn();
    new IdleWatchdog(new BusyFloorAllowance(5000).for(1000), onIdle).stop();
    vi.advanceTimersByTime(10_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
