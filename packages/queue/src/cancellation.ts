import { type Queue, Relay } from 'bullmq';

/** A request to stop one job, as stored in Redis and sent to the workers. */
export interface CancelRequest {
  jobId: string;
  reason: string;
  /** ISO time of the request. */
  at: string;
}

// One hash per queue, beside BullMQ's own keys (`{prefix}:{queue}:…`), so obliterating the queue
// removes it too. It is the durable half of a cancellation: a worker that missed the message
// (it was busy starting the job, or reconnecting) still finds the request there.
const MARKER_SUFFIX = 'hankweave:cancelled';

/** Relay topics allow `[A-Za-z0-9_:%-]` per segment: everything else is percent-encoded. */
const topicSegment = (text: string): string =>
  text.replace(
    /[^A-Za-z0-9_:-]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );

/** The Relay topic on which a queue's cancellations are announced to its workers. */
export const cancelTopic = (queue: Queue): string =>
  `hankweave.cancel.${topicSegment(queue.opts.prefix ?? 'bull')}.${topicSegment(queue.name)}`;

const markerKey = (queue: Queue): string => queue.toKey(MARKER_SUFFIX);
const clientOf = (queue: Queue) => queue.getBackend().client;

/** Records the request durably (before it is announced, so no worker can miss both). */
export async function markCancelled(queue: Queue, request: CancelRequest): Promise<void> {
  await (await clientOf(queue)).hset(markerKey(queue), {
    [request.jobId]: JSON.stringify(request),
  });
}

/** The recorded requests among `jobIds`. */
export async function cancelRequests(
  queue: Queue,
  jobIds: readonly string[],
): Promise<Map<string, CancelRequest>> {
  const found = new Map<string, CancelRequest>();
  if (jobIds.length === 0) return found;
  const values = await (await clientOf(queue)).hmget(markerKey(queue), ...jobIds);
  values.forEach((value, index) => {
    const jobId = jobIds[index];
    if (value === null || jobId === undefined) return;
    try {
      found.set(jobId, JSON.parse(value) as CancelRequest);
    } catch {
      found.set(jobId, { jobId, reason: 'cancelled', at: '' });
    }
  });
  return found;
}

/** Forgets a request once its job has ended. */
export async function clearCancelRequest(queue: Queue, jobId: string): Promise<void> {
  await (await clientOf(queue)).hdel(markerKey(queue), jobId);
}

/** BullMQ's Relay for one queue's cancellations: the cross-process half. */
export function cancelRelay(queue: Queue): Relay {
  return new Relay({
    connection: queue.opts.connection,
    ...(queue.opts.prefix !== undefined ? { prefix: queue.opts.prefix } : {}),
    namespace: 'hankweave',
  });
}
