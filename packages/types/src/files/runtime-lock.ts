import { z } from 'zod';
import { timestampSchema } from '../common.js';

/**
 * `.hankweave/runtime.lock` (seed 001): who holds the execution and whether it is alive.
 * `lockId` fences a successor's lock from a predecessor's release; `port` and `token` let
 * clients attach (the file is written with mode 0600 because of the token).
 */
export const runtimeLockSchema = z.looseObject({
  pid: z.number().int(),
  runId: z.string().nullable(),
  startTime: timestampSchema,
  lastHeartbeat: timestampSchema,
  lockId: z.string().optional(),
  port: z.number().int().optional(),
  proxyPort: z.number().int().optional(),
  host: z.string().optional(),
  /**
   * The machine of the holder (`os.hostname()`): its pid means nothing on another machine, so a
   * lock from another host is judged by its heartbeat alone. Absent in the original's files.
   */
  hostname: z.string().optional(),
  /**
   * hankweave's addition: when the holder process started (Linux: `<boot_id>:<ticks>`, field 22
   * of `/proc/<pid>/stat`). Pids are reused: the pid is the holder only while its start time is
   * this one. Absent in the original's files (the pid alone is then trusted, as before).
   */
  processStartTime: z.string().optional().catch(undefined),
  token: z.string().optional(),
});
export type RuntimeLock = z.infer<typeof runtimeLockSchema>;
