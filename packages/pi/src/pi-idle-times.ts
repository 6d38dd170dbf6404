/** Pi's default idle time (reference §4.3: `DEFAULT_PI_IDLE_TIMEOUT`, 120 s). */
export const PI_DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/**
 * The idle floor while a tool runs (reference §4.3: `PI_BUSY_TIMEOUT_MS`, 300 s): Pi prints
 * nothing while a tool runs, so its session's watchdog uses the harness's `BusyFloorAllowance`.
 */
export const PI_BUSY_TIMEOUT_MS = 300_000;
