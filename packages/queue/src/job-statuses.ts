// Its own entry (`@hankweave/queue/job-statuses`): a command line that only lists these words, in
// its help or its completion, must not load BullMQ and ioredis that the main entry brings.

/** The BullMQ states a listing shows. */
export const JOB_STATUSES = [
  'active',
  'waiting',
  'prioritized',
  'delayed',
  'completed',
  'failed',
] as const;
