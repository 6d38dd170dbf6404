import type { AsyncSubscription, SubscribeCallback } from '@parcel/watcher';

type Watcher = typeof import('@parcel/watcher');

// @parcel/watcher keeps, per process, one native watcher per directory (and ignore list) and one
// cached directory tree per directory. A new subscription of a directory whose old native
// watcher is still alive joins it, or reuses its tree without crawling: it then watches the
// directories that tree remembers (perhaps an inode since moved away, perhaps without the
// directories made since), and events go missing without an error. So, process-wide like those
// caches:
// - a directory is subscribed again only after its last unsubscribe has finished;
// - an unsubscribe that failed (inotify_rm_watch on a watch the kernel had already dropped, for
//   a directory deleted before its events were read), like a subscribe that failed, stops
//   half-way and leaves watches and their tree alive for good: the directory is then never
//   trusted to a subscription again in this process (the caller walks it instead).
const unsubscribing = new Map<string, Promise<void>>();
const leftBehind = new Set<string>();

/** Thrown by {@link subscribeDir} for a directory whose old native watch could not be removed. */
export class StaleNativeWatch extends Error {}

/** Subscribes `dir` once no earlier subscription of it is still being removed. */
export async function subscribeDir(
  watcher: Watcher,
  dir: string,
  onEvents: SubscribeCallback,
  ignore: RegExp[],
): Promise<AsyncSubscription> {
  while (unsubscribing.has(dir)) await unsubscribing.get(dir);
  if (leftBehind.has(dir)) {
    throw new StaleNativeWatch(
      `an earlier native watch of ${dir} could not be removed, so a new one would reuse its stale directory tree`,
    );
  }
  try {
    return await watcher.subscribe(dir, onEvents, { ignore });
  } catch (error) {
    // A crawl that failed half-way (a directory deleted under it, no inotify watches left) keeps
    // the watches it added, and their tree, as an unsubscribe that failed does.
    leftBehind.add(dir);
    throw error;
  }
}

/** Removes a subscription of `dir`; never rejects (a failure marks the directory). */
export function unsubscribeDir(dir: string, subscription: AsyncSubscription): Promise<void> {
  const before = unsubscribing.get(dir) ?? Promise.resolve();
  const done = before
    .then(() => subscription.unsubscribe())
    .then(
      () => undefined,
      () => {
        leftBehind.add(dir);
      },
    );
  unsubscribing.set(dir, done);
  void done.then(() => {
    if (unsubscribing.get(dir) === done) unsubscribing.delete(dir);
  });
  return done;
}
